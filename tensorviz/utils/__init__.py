"""``tensorviz.utils``: utilities outside the tensor engine (``tensorviz.utils.data``)."""
from . import data

__all__ = ["data"]
