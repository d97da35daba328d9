"""Private helpers of ``tensorviz.serialization`` (PyTorch's zip-based file format).

- ``_zipformat``: the uncompressed, 64-byte-aligned zip container, written and read.
- ``_pickling``: the pickler that writes ``data.pkl`` with PyTorch's global names.
- ``_unpickling``: the restricted unpickler that reads ``data.pkl`` without running code.
"""
