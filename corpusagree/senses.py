"""Sense inventories and extended senses (Artstein & Poesio 2005, §4.4): the public home of
:class:`SenseInventory`, defined in :mod:`corpusagree.model.senses`."""

from .model.senses import SenseInventory

__all__ = ["SenseInventory"]
