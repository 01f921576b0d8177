"""Derivations: the rules layer run over the warehouse, written back as derived tables."""
