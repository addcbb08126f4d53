"""Pydantic schemas for every component a content pack can define.

One module per family of components; ``rules`` holds the rules constants (the readings
D1-D20 of ``reference/rules-decisions.md`` live in the pack's ``rules.yaml``, not here).
"""
