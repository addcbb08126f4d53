"""Marks this folder as the package ``companion_data.assets`` (see setup.py and
companion_data/__init__.py): the icons, read through importlib.resources. No code."""
