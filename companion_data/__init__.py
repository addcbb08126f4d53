"""What the companion reads at run time, shipped as package data.

The folders stay where the project keeps them (``content/``, ``assets/``, ``docs/``);
``setup.py`` maps each into this package, so the wheel, the editable checkout and the
PyInstaller build all find them the same way, through ``importlib.resources``:

=========================  ======================  ==========================================
package                    folder in the checkout  what
=========================  ======================  ==========================================
``companion_data.content``  ``content/``           the shipped content packs (``sample``)
``companion_data.assets``   ``assets/``            the application icon, the map's icons
``companion_data.guide``    ``docs/``              Help ▸ Getting Started and its pictures
=========================  ======================  ==========================================

Each of those folders holds an ``__init__.py`` that marks it as that package and nothing
else. ``companion.paths`` is the only module that asks for them.
"""
