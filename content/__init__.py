"""Marks this folder as the package ``companion_data.content`` (see setup.py and
companion_data/__init__.py): the shipped content packs, read through importlib.resources.
No code lives here; each sub-folder with a pack.yaml is a pack."""
