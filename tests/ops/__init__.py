"""Differential tests of the op library against PyTorch."""
