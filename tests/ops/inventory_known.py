"""Known divergences of tensorviz from PyTorch found by tests/ops/test_inventory.py.

``KNOWN[(op, spelling)] = (reason, cases)``: the item is marked ``xfail(strict=True)`` and
must fail in exactly these ``"dtype/layout"`` cases (``fnmatch`` patterns), in no others.
Each reason says what differs first, by kind, with a sample (``op#index dtype layout``:
rebuild it with ``tests.inventory.samples(op, dtype, layout)``).  When a fix lands, the
item passes, its strict xfail fails, and its line here goes: rewrite this file with
``PYTHONPATH=. python -W ignore tests/ops/inventory_known_regen.py``.
"""
from __future__ import annotations

KNOWN: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {
    ('bitwise_not', 'inplace'): (
        'tensorviz raises NotImplementedError(\'"bitwise_not_cpu" not implemented for '
        "\\'Float\\'') where PyTorch raises RuntimeError('unsupported operation: more than one "
        'element of the written-to tensor refers to a s... [bitwise_not#0 float32 expand]',
        ('float32/expand',)),
    ('special.ndtr', 'function'): (
        'message differs: tensorviz \'"ndtr_cpu" not implemented for \\\'ComplexFloat\\\'\' vs '
        'PyTorch \'"erf_vml_cpu" not implemented for \\\'ComplexFloat\\\'\' [special.ndtr#0 '
        'complex64 contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('round', 'function'): (
        'message differs: tensorviz \'"round_vml_cpu" not implemented for \\\'ComplexFloat\\\'\' vs'
        ' PyTorch \'"round_cpu" not implemented for \\\'ComplexFloat\\\'\' [round#1 complex64 '
        'contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('round', 'method'): (
        'message differs: tensorviz \'"round_vml_cpu" not implemented for \\\'ComplexFloat\\\'\' vs'
        ' PyTorch \'"round_cpu" not implemented for \\\'ComplexFloat\\\'\' [round#1 complex64 '
        'contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('round', 'inplace'): (
        'message differs: tensorviz \'"round_vml_cpu" not implemented for \\\'ComplexFloat\\\'\' vs'
        ' PyTorch \'"round_cpu" not implemented for \\\'ComplexFloat\\\'\' [round#1 complex64 '
        'contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('special.round', 'function'): (
        'message differs: tensorviz \'"round_vml_cpu" not implemented for \\\'Bool\\\'\' vs PyTorch'
        ' \'"round_cpu" not implemented for \\\'Bool\\\'\' [special.round#1 bool contig]',
        (
          'bool/contig', 'complex128/contig', 'complex64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('mvlgamma', 'function'): (
        'message differs: tensorviz \'"lgamma_vml_cpu" not implemented for \\\'ComplexFloat\\\'\' '
        'vs PyTorch \'"arange_cpu" not implemented for \\\'ComplexFloat\\\'\' [mvlgamma#0 complex64'
        ' contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('mvlgamma', 'method'): (
        'message differs: tensorviz \'"lgamma_vml_cpu" not implemented for \\\'ComplexFloat\\\'\' '
        'vs PyTorch \'"arange_cpu" not implemented for \\\'ComplexFloat\\\'\' [mvlgamma#0 complex64'
        ' contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('mvlgamma', 'inplace'): (
        'message differs: tensorviz \'"lgamma_vml_cpu" not implemented for \\\'ComplexFloat\\\'\' '
        'vs PyTorch \'"arange_cpu" not implemented for \\\'ComplexFloat\\\'\' [mvlgamma#0 complex64'
        ' contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('special.multigammaln', 'function'): (
        'message differs: tensorviz \'"lgamma_vml_cpu" not implemented for \\\'ComplexFloat\\\'\' '
        'vs PyTorch \'"arange_cpu" not implemented for \\\'ComplexFloat\\\'\' '
        '[special.multigammaln#0 complex64 contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('atan2', 'method'): (
        'message differs: tensorviz "atan2(): argument \'other\' (position 2) must be Tensor, '
        'not int" vs PyTorch "atan2(): argument \'other\' (position 1) must be Tensor, not int"'
        ' [atan2#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('atan2', 'inplace'): (
        'message differs: tensorviz "atan2(): argument \'other\' (position 2) must be Tensor, '
        'not int" vs PyTorch "atan2_(): argument \'other\' (position 1) must be Tensor, not '
        'int" [atan2#2 bool contig]; tensorviz raises RuntimeError(\'unsupported operation: '
        'more than one element of the written-to tensor refers to a s... where PyTorch raises'
        ' TypeError("atan2_(): argument \'other\' (position 1) must be Tensor, not int") '
        '[atan2#2 float32 expand]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('arctan2', 'function'): (
        'message differs: tensorviz "atan2(): argument \'other\' (position 2) must be Tensor, '
        'not int" vs PyTorch "arctan2(): argument \'other\' (position 2) must be Tensor, not '
        'int" [arctan2#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('arctan2', 'method'): (
        'message differs: tensorviz "atan2(): argument \'other\' (position 2) must be Tensor, '
        'not int" vs PyTorch "arctan2(): argument \'other\' (position 1) must be Tensor, not '
        'int" [arctan2#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('arctan2', 'inplace'): (
        'message differs: tensorviz "atan2(): argument \'other\' (position 2) must be Tensor, '
        'not int" vs PyTorch "arctan2_(): argument \'other\' (position 1) must be Tensor, not '
        'int" [arctan2#2 bool contig]; tensorviz raises RuntimeError(\'unsupported operation: '
        'more than one element of the written-to tensor refers to a s... where PyTorch raises'
        ' TypeError("arctan2_(): argument \'other\' (position 1) must be Tensor, not int") '
        '[arctan2#2 float32 expand]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('hypot', 'method'): (
        'message differs: tensorviz "hypot(): argument \'other\' (position 2) must be Tensor, '
        'not int" vs PyTorch "hypot(): argument \'other\' (position 1) must be Tensor, not int"'
        ' [hypot#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('hypot', 'inplace'): (
        'message differs: tensorviz "hypot(): argument \'other\' (position 2) must be Tensor, '
        'not int" vs PyTorch "hypot_(): argument \'other\' (position 1) must be Tensor, not '
        'int" [hypot#2 bool contig]; tensorviz raises RuntimeError(\'unsupported operation: '
        'more than one element of the written-to tensor refers to a s... where PyTorch raises'
        ' TypeError("hypot_(): argument \'other\' (position 1) must be Tensor, not int") '
        '[hypot#2 float32 expand]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('nextafter', 'method'): (
        'message differs: tensorviz "nextafter(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "nextafter(): argument \'other\' (position 1) must be '
        'Tensor, not int" [nextafter#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('nextafter', 'inplace'): (
        'message differs: tensorviz "nextafter(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "nextafter_(): argument \'other\' (position 1) must be '
        'Tensor, not int" [nextafter#2 bool contig]; tensorviz raises '
        "RuntimeError('unsupported operation: more than one element of the written-to tensor "
        'refers to a s... where PyTorch raises TypeError("nextafter_(): argument \'other\' '
        '(position 1) must be Tensor, not int") [nextafter#2 float32 expand]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('logaddexp', 'method'): (
        'message differs: tensorviz "logaddexp(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "logaddexp(): argument \'other\' (position 1) must be '
        'Tensor, not int" [logaddexp#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('logaddexp2', 'method'): (
        'message differs: tensorviz "logaddexp2(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "logaddexp2(): argument \'other\' (position 1) must be '
        'Tensor, not int" [logaddexp2#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('maximum', 'function'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,4) (0,) ') where PyTorch raises RuntimeError('The size of tensor a (4) must match"
        ' the size of tensor b (0) at non-singleton dimen... [maximum#1 float32 empty]',
        ('float32/empty',)),
    ('maximum', 'method'): (
        'message differs: tensorviz "maximum(): argument \'other\' (position 2) must be Tensor,'
        ' not int" vs PyTorch "maximum(): argument \'other\' (position 1) must be Tensor, not '
        'int" [maximum#2 bool contig]; tensorviz raises ValueError(\'operands could not be '
        "broadcast together with shapes (0,4) (0,) ') where PyTorch raises RuntimeError('The "
        'size of tensor a (4) must match the size of tensor b (0) at non-singleton dimen... '
        '[maximum#1 float32 empty]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('minimum', 'function'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,4) (0,) ') where PyTorch raises RuntimeError('The size of tensor a (4) must match"
        ' the size of tensor b (0) at non-singleton dimen... [minimum#1 float32 empty]',
        ('float32/empty',)),
    ('minimum', 'method'): (
        'message differs: tensorviz "minimum(): argument \'other\' (position 2) must be Tensor,'
        ' not int" vs PyTorch "minimum(): argument \'other\' (position 1) must be Tensor, not '
        'int" [minimum#2 bool contig]; tensorviz raises ValueError(\'operands could not be '
        "broadcast together with shapes (0,4) (0,) ') where PyTorch raises RuntimeError('The "
        'size of tensor a (4) must match the size of tensor b (0) at non-singleton dimen... '
        '[minimum#1 float32 empty]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('fmax', 'function'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,4) (0,) ') where PyTorch raises RuntimeError('The size of tensor a (4) must match"
        ' the size of tensor b (0) at non-singleton dimen... [fmax#1 float32 empty]',
        ('float32/empty',)),
    ('fmax', 'method'): (
        'message differs: tensorviz "fmax(): argument \'other\' (position 2) must be Tensor, '
        'not int" vs PyTorch "fmax(): argument \'other\' (position 1) must be Tensor, not int" '
        "[fmax#2 bool contig]; tensorviz raises ValueError('operands could not be broadcast "
        "together with shapes (0,4) (0,) ') where PyTorch raises RuntimeError('The size of "
        'tensor a (4) must match the size of tensor b (0) at non-singleton dimen... [fmax#1 '
        'float32 empty]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('fmin', 'function'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,4) (0,) ') where PyTorch raises RuntimeError('The size of tensor a (4) must match"
        ' the size of tensor b (0) at non-singleton dimen... [fmin#1 float32 empty]',
        ('float32/empty',)),
    ('fmin', 'method'): (
        'message differs: tensorviz "fmin(): argument \'other\' (position 2) must be Tensor, '
        'not int" vs PyTorch "fmin(): argument \'other\' (position 1) must be Tensor, not int" '
        "[fmin#2 bool contig]; tensorviz raises ValueError('operands could not be broadcast "
        "together with shapes (0,4) (0,) ') where PyTorch raises RuntimeError('The size of "
        'tensor a (4) must match the size of tensor b (0) at non-singleton dimen... [fmin#1 '
        'float32 empty]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('heaviside', 'method'): (
        'message differs: tensorviz "heaviside(): argument \'values\' (position 2) must be '
        'Tensor, not int" vs PyTorch "heaviside(): argument \'values\' (position 1) must be '
        'Tensor, not int" [heaviside#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('heaviside', 'inplace'): (
        'message differs: tensorviz "heaviside(): argument \'values\' (position 2) must be '
        'Tensor, not int" vs PyTorch "heaviside_(): argument \'values\' (position 1) must be '
        'Tensor, not int" [heaviside#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('heaviside', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('heaviside is not yet implemented"
        " for tensors with different dtypes.'); tensorviz accepts [heaviside#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('logical_and', 'function'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,4) (0,) ') where PyTorch raises RuntimeError('The size of tensor a (4) must match"
        ' the size of tensor b (0) at non-singleton dimen... [logical_and#1 float32 empty]',
        ('float32/empty',)),
    ('logical_and', 'method'): (
        'message differs: tensorviz "logical_and(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "logical_and(): argument \'other\' (position 1) must be '
        'Tensor, not int" [logical_and#2 bool contig]; tensorviz raises ValueError(\'operands '
        "could not be broadcast together with shapes (0,4) (0,) ') where PyTorch raises "
        "RuntimeError('The size of tensor a (4) must match the size of tensor b (0) at "
        'non-singleton dimen... [logical_and#1 float32 empty]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('logical_and', 'inplace'): (
        'message differs: tensorviz "logical_and(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "logical_and_(): argument \'other\' (position 1) must be '
        'Tensor, not int" [logical_and#2 bool contig]; tensorviz raises '
        "RuntimeError('unsupported operation: more than one element of the written-to tensor "
        'refers to a s... where PyTorch raises TypeError("logical_and_(): argument \'other\' '
        '(position 1) must be Tensor, not int") [logical_and#2 float32 expand]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('logical_or', 'function'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,4) (0,) ') where PyTorch raises RuntimeError('The size of tensor a (4) must match"
        ' the size of tensor b (0) at non-singleton dimen... [logical_or#1 float32 empty]',
        ('float32/empty',)),
    ('logical_or', 'method'): (
        'message differs: tensorviz "logical_or(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "logical_or(): argument \'other\' (position 1) must be '
        'Tensor, not int" [logical_or#2 bool contig]; tensorviz raises ValueError(\'operands '
        "could not be broadcast together with shapes (0,4) (0,) ') where PyTorch raises "
        "RuntimeError('The size of tensor a (4) must match the size of tensor b (0) at "
        'non-singleton dimen... [logical_or#1 float32 empty]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('logical_or', 'inplace'): (
        'message differs: tensorviz "logical_or(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "logical_or_(): argument \'other\' (position 1) must be '
        'Tensor, not int" [logical_or#2 bool contig]; tensorviz raises '
        "RuntimeError('unsupported operation: more than one element of the written-to tensor "
        'refers to a s... where PyTorch raises TypeError("logical_or_(): argument \'other\' '
        '(position 1) must be Tensor, not int") [logical_or#2 float32 expand]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('logical_xor', 'function'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,4) (0,) ') where PyTorch raises RuntimeError('The size of tensor a (4) must match"
        ' the size of tensor b (0) at non-singleton dimen... [logical_xor#1 float32 empty]',
        ('float32/empty',)),
    ('logical_xor', 'method'): (
        'message differs: tensorviz "logical_xor(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "logical_xor(): argument \'other\' (position 1) must be '
        'Tensor, not int" [logical_xor#2 bool contig]; tensorviz raises ValueError(\'operands '
        "could not be broadcast together with shapes (0,4) (0,) ') where PyTorch raises "
        "RuntimeError('The size of tensor a (4) must match the size of tensor b (0) at "
        'non-singleton dimen... [logical_xor#1 float32 empty]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('logical_xor', 'inplace'): (
        'message differs: tensorviz "logical_xor(): argument \'other\' (position 2) must be '
        'Tensor, not int" vs PyTorch "logical_xor_(): argument \'other\' (position 1) must be '
        'Tensor, not int" [logical_xor#2 bool contig]; tensorviz raises '
        "RuntimeError('unsupported operation: more than one element of the written-to tensor "
        'refers to a s... where PyTorch raises TypeError("logical_xor_(): argument \'other\' '
        '(position 1) must be Tensor, not int") [logical_xor#2 float32 expand]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('rsub', 'out'): (
        'message differs: tensorviz "rsub() got an unexpected keyword argument \'out\'" vs '
        'PyTorch "rsub() received an invalid combination of arguments - got (Tensor, Tensor, '
        'out=Tensor), but expe... [rsub#0 uint8 contig]',
        (
          'bfloat16/contig', 'complex128/contig', 'complex64/contig', 'float16/contig',
          'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('gcd', 'method'): (
        'message differs: tensorviz "gcd(): argument \'other\' (position 2) must be Tensor, not'
        ' int" vs PyTorch "gcd(): argument \'other\' (position 1) must be Tensor, not int" '
        '[gcd#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/0d', 'int64/contig', 'int64/empty', 'int64/expand', 'int64/offset', 'int64/step',
          'int64/t', 'int8/contig', 'uint8/contig',
        )),
    ('gcd', 'inplace'): (
        'message differs: tensorviz "gcd(): argument \'other\' (position 2) must be Tensor, not'
        ' int" vs PyTorch "gcd_(): argument \'other\' (position 1) must be Tensor, not int" '
        "[gcd#2 bool contig]; tensorviz raises RuntimeError('unsupported operation: more than"
        ' one element of the written-to tensor refers to a s... where PyTorch raises '
        'TypeError("gcd_(): argument \'other\' (position 1) must be Tensor, not int") [gcd#2 '
        'int64 expand]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/0d', 'int64/contig', 'int64/empty', 'int64/expand', 'int64/offset', 'int64/step',
          'int64/t', 'int8/contig', 'uint8/contig',
        )),
    ('lcm', 'method'): (
        'message differs: tensorviz "lcm(): argument \'other\' (position 2) must be Tensor, not'
        ' int" vs PyTorch "lcm(): argument \'other\' (position 1) must be Tensor, not int" '
        '[lcm#2 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/0d', 'int64/contig', 'int64/empty', 'int64/expand', 'int64/offset', 'int64/step',
          'int64/t', 'int8/contig', 'uint8/contig',
        )),
    ('lcm', 'inplace'): (
        'message differs: tensorviz "lcm(): argument \'other\' (position 2) must be Tensor, not'
        ' int" vs PyTorch "lcm_(): argument \'other\' (position 1) must be Tensor, not int" '
        "[lcm#2 bool contig]; tensorviz raises RuntimeError('unsupported operation: more than"
        ' one element of the written-to tensor refers to a s... where PyTorch raises '
        'TypeError("lcm_(): argument \'other\' (position 1) must be Tensor, not int") [lcm#2 '
        'int64 expand]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/0d', 'int64/contig', 'int64/empty', 'int64/expand', 'int64/offset', 'int64/step',
          'int64/t', 'int8/contig', 'uint8/contig',
        )),
    ('float_power', 'out'): (
        'out= (cast out): PyTorch refuses with RuntimeError("the output given to float_power '
        "has dtype Float but the operation's result requires...; tensorviz accepts "
        '[float_power#0 int64 contig]',
        ('float32/contig', 'int64/contig',)),
    ('ldexp', 'out'): (
        'out= (cast out): PyTorch refuses with '
        "RuntimeError('!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
        '"/__w/pytorch...; tensorviz accepts [ldexp#0 float32 contig]',
        ('float32/contig',)),
    ('addcmul', 'function'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,4) (0,0) ') where PyTorch raises RuntimeError('The size of tensor a (4) must "
        'match the size of tensor b (0) at non-singleton dimen... [addcmul#1 float32 empty]',
        ('float32/empty',)),
    ('addcmul', 'method'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,4) (0,0) ') where PyTorch raises RuntimeError('The size of tensor a (4) must "
        'match the size of tensor b (0) at non-singleton dimen... [addcmul#1 float32 empty]',
        ('float32/empty',)),
    ('addcdiv', 'function'): (
        "message differs: tensorviz 'Integer division with addcdiv is no longer supported, "
        "and in a future release addcdiv will perfo... vs PyTorch 'Integer division with "
        'addcdiv is no longer supported, and in a future  release addcdiv will perf... '
        "[addcdiv#0 bool contig]; tensorviz raises ValueError('operands could not be "
        "broadcast together with shapes (0,4) (0,0) ') where PyTorch raises RuntimeError('The"
        ' size of tensor a (4) must match the size of tensor b (0) at non-singleton dimen... '
        '[addcdiv#1 float32 empty]',
        (
          'bool/contig', 'float32/empty', 'int16/contig', 'int32/contig', 'int64/contig',
          'int8/contig', 'uint8/contig',
        )),
    ('addcdiv', 'method'): (
        "message differs: tensorviz 'Integer division with addcdiv is no longer supported, "
        "and in a future release addcdiv will perfo... vs PyTorch 'Integer division with "
        'addcdiv is no longer supported, and in a future  release addcdiv will perf... '
        "[addcdiv#0 bool contig]; tensorviz raises ValueError('operands could not be "
        "broadcast together with shapes (0,4) (0,0) ') where PyTorch raises RuntimeError('The"
        ' size of tensor a (4) must match the size of tensor b (0) at non-singleton dimen... '
        '[addcdiv#1 float32 empty]',
        (
          'bool/contig', 'float32/empty', 'int16/contig', 'int32/contig', 'int64/contig',
          'int8/contig', 'uint8/contig',
        )),
    ('addcdiv', 'inplace'): (
        "message differs: tensorviz 'Integer division with addcdiv is no longer supported, "
        "and in a future release addcdiv will perfo... vs PyTorch 'Integer division with "
        'addcdiv is no longer supported, and in a future  release addcdiv will perf... '
        '[addcdiv#0 bool contig]',
        (
          'bool/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('lerp', 'function'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,) (0,4) ') where PyTorch raises RuntimeError('The size of tensor a (4) must match"
        ' the size of tensor b (0) at non-singleton dimen... [lerp#1 float32 empty]',
        ('float32/empty',)),
    ('lerp', 'method'): (
        "tensorviz raises ValueError('operands could not be broadcast together with shapes "
        "(0,) (0,4) ') where PyTorch raises RuntimeError('The size of tensor a (4) must match"
        ' the size of tensor b (0) at non-singleton dimen... [lerp#1 float32 empty]',
        ('float32/empty',)),
    ('lerp', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Found dtype Double but expected "
        "Float'); tensorviz accepts [lerp#1 float32 contig]",
        ('float32/contig',)),
    ('clamp', 'function'): (
        'PyTorch refuses with NotImplementedError(\'"clamp_cpu" not implemented for '
        "\\'Bool\\''); tensorviz accepts [clamp#1 bool contig]",
        ('bool/contig',)),
    ('clamp', 'method'): (
        'PyTorch refuses with NotImplementedError(\'"clamp_cpu" not implemented for '
        "\\'Bool\\''); tensorviz accepts [clamp#1 bool contig]",
        ('bool/contig',)),
    ('clamp', 'inplace'): (
        'message differs: tensorviz "result type Long can\'t be cast to the desired output '
        'type Bool" vs PyTorch "result type Long can\'t be cast to the desired output type '
        'bool" [clamp#0 bool contig]; PyTorch refuses with NotImplementedError(\'"clamp_cpu" '
        "not implemented for \\'Bool\\''); tensorviz accepts [clamp#1 bool contig]",
        ('bool/contig',)),
    ('clamp', 'out'): (
        "out= (cast out): tensorviz refuses with RuntimeError('Found dtype Double but "
        "expected Long'); PyTorch accepts [clamp#1 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('clip', 'function'): (
        'PyTorch refuses with NotImplementedError(\'"clamp_cpu" not implemented for '
        "\\'Bool\\''); tensorviz accepts [clip#1 bool contig]",
        ('bool/contig',)),
    ('clip', 'method'): (
        'PyTorch refuses with NotImplementedError(\'"clamp_cpu" not implemented for '
        "\\'Bool\\''); tensorviz accepts [clip#1 bool contig]",
        ('bool/contig',)),
    ('clip', 'inplace'): (
        'message differs: tensorviz "result type Long can\'t be cast to the desired output '
        'type Bool" vs PyTorch "result type Long can\'t be cast to the desired output type '
        'bool" [clip#0 bool contig]; PyTorch refuses with NotImplementedError(\'"clamp_cpu" '
        "not implemented for \\'Bool\\''); tensorviz accepts [clip#1 bool contig]",
        ('bool/contig',)),
    ('clip', 'out'): (
        "out= (cast out): tensorviz refuses with RuntimeError('Found dtype Double but "
        "expected Long'); PyTorch accepts [clip#1 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('clamp_min', 'inplace'): (
        'message differs: tensorviz "result type Long can\'t be cast to the desired output '
        'type Bool" vs PyTorch "result type Long can\'t be cast to the desired output type '
        'bool" [clamp_min#0 bool contig]',
        ('bool/contig',)),
    ('clamp_min', 'out'): (
        'tensorviz refuses with TypeError("clamp_min() got an unexpected keyword argument '
        '\'out\'"); PyTorch accepts [clamp_min#0 bool contig]; out= (cast out): tensorviz '
        'raises TypeError("clamp_min() got an unexpected keyword argument \'out\'") where '
        "PyTorch raises RuntimeError('Found dtype Double but expected Long') [clamp_min#0 "
        'int64 contig]',
        (
          'bfloat16/contig', 'bool/contig', 'float16/contig', 'float32/0d', 'float32/contig',
          'float32/empty', 'float32/expand', 'float32/offset', 'float32/step', 'float32/t',
          'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('clamp_max', 'inplace'): (
        'message differs: tensorviz "result type Long can\'t be cast to the desired output '
        'type Bool" vs PyTorch "result type Long can\'t be cast to the desired output type '
        'bool" [clamp_max#0 bool contig]',
        ('bool/contig',)),
    ('clamp_max', 'out'): (
        'tensorviz refuses with TypeError("clamp_max() got an unexpected keyword argument '
        '\'out\'"); PyTorch accepts [clamp_max#0 bool contig]; out= (cast out): tensorviz '
        'raises TypeError("clamp_max() got an unexpected keyword argument \'out\'") where '
        "PyTorch raises RuntimeError('Found dtype Double but expected Long') [clamp_max#0 "
        'int64 contig]',
        (
          'bfloat16/contig', 'bool/contig', 'float16/contig', 'float32/0d', 'float32/contig',
          'float32/empty', 'float32/expand', 'float32/offset', 'float32/step', 'float32/t',
          'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('sum', 'out'): (
        "PyTorch refuses with TypeError('sum() received an invalid combination of arguments -"
        ' got (Tensor, out=Tensor), but exp...; tensorviz accepts [sum#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('nansum', 'function'): (
        "message differs: tensorviz 'nansum does not support complex inputs' vs PyTorch "
        "'nansum on CPU does not support complex inputs' [nansum#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('nansum', 'method'): (
        "message differs: tensorviz 'nansum does not support complex inputs' vs PyTorch "
        "'nansum on CPU does not support complex inputs' [nansum#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('nansum', 'out'): (
        "out= (cast out): message differs: tensorviz 'Expected out tensor to have dtype "
        "double, but got float instead' vs PyTorch 'nansum: provided dtype must match dtype "
        "of result. Got Float and Double.' [nansum#4 float32 contig]",
        ('float32/contig',)),
    ('prod', 'function'): (
        'message differs: tensorviz "prod(): argument \'dim\' must be int, not tuple" vs '
        "PyTorch 'prod() received an invalid combination of arguments - got (Tensor, "
        'dim=tuple), but expected one ... [prod#3 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('prod', 'method'): (
        'message differs: tensorviz "prod(): argument \'dim\' must be int, not tuple" vs '
        "PyTorch 'prod() received an invalid combination of arguments - got (dim=tuple, ), "
        'but expected one of:\\n ... [prod#3 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('prod', 'out'): (
        "PyTorch refuses with TypeError('prod() received an invalid combination of arguments "
        '- got (Tensor, out=Tensor), but ex...; tensorviz accepts [prod#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('mean', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Expected out tensor to have "
        "dtype double, but got float instead'); tensorviz accepts [mean#4 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('nanmean', 'function'): (
        "message differs: tensorviz 'nansum does not support complex inputs' vs PyTorch "
        "'nansum on CPU does not support complex inputs' [nanmean#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('nanmean', 'method'): (
        "message differs: tensorviz 'nansum does not support complex inputs' vs PyTorch "
        "'nansum on CPU does not support complex inputs' [nanmean#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('nanmean', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('nansum: provided dtype must "
        "match dtype of result. Got Float and Double.'); tensorviz accepts [nanmean#4 float32"
        ' contig]',
        ('float32/contig',)),
    ('median', 'function'): (
        'message differs: tensorviz \'"median_cpu" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"median_out" not implemented for \\\'Bool\\\'\' [median#1 bool contig]; values differ '
        "(result[0]) [median#2 float32 expand] (Note: the expand-layout values are PyTorch's "
        'bug: torch.median(torch.tensor([[3., 1, 2, 5]]).expand(3, 4), 0) gives [2, 2, 5, 5];'
        ' tensorviz gives the right [3, 1, 2, 5])',
        ('bool/contig', 'complex128/contig', 'complex64/contig', 'float32/expand',)),
    ('median', 'method'): (
        'message differs: tensorviz \'"median_cpu" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"median_out" not implemented for \\\'Bool\\\'\' [median#1 bool contig]; values differ '
        "(result[0]) [median#2 float32 expand] (Note: the expand-layout values are PyTorch's "
        'bug: torch.median(torch.tensor([[3., 1, 2, 5]]).expand(3, 4), 0) gives [2, 2, 5, 5];'
        ' tensorviz gives the right [3, 1, 2, 5])',
        ('bool/contig', 'complex128/contig', 'complex64/contig', 'float32/expand',)),
    ('median', 'out'): (
        "PyTorch refuses with TypeError('median() missing 1 required positional arguments: "
        '"dim"\'); tensorviz accepts [median#0 uint8 contig]; values differ (result[0]) '
        "[median#2 float32 expand] (Note: the expand-layout values are PyTorch's bug: "
        'torch.median(torch.tensor([[3., 1, 2, 5]]).expand(3, 4), 0) gives [2, 2, 5, 5]; '
        'tensorviz gives the right [3, 1, 2, 5])',
        (
          'bfloat16/contig', 'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty',
          'float32/expand', 'float32/offset', 'float32/step', 'float32/t', 'float64/contig',
          'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('nanmedian', 'function'): (
        'message differs: tensorviz \'"median_cpu" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"median_out" not implemented for \\\'Bool\\\'\' [nanmedian#1 bool contig]; values differ'
        ' (result[0]) [nanmedian#2 float32 expand] (Note: the expand-layout values are '
        "PyTorch's bug (see median))",
        (
          'bool/contig', 'complex128/contig', 'complex64/contig', 'float32/empty',
          'float32/expand',
        )),
    ('nanmedian', 'method'): (
        'message differs: tensorviz \'"median_cpu" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"median_out" not implemented for \\\'Bool\\\'\' [nanmedian#1 bool contig]; values differ'
        ' (result[0]) [nanmedian#2 float32 expand] (Note: the expand-layout values are '
        "PyTorch's bug (see median))",
        (
          'bool/contig', 'complex128/contig', 'complex64/contig', 'float32/empty',
          'float32/expand',
        )),
    ('nanmedian', 'out'): (
        "PyTorch refuses with TypeError('nanmedian() missing 1 required positional arguments:"
        ' "dim"\'); tensorviz accepts [nanmedian#0 uint8 contig]; values differ (result[0]) '
        "[nanmedian#2 float32 expand] (Note: the expand-layout values are PyTorch's bug (see "
        'median))',
        (
          'bfloat16/contig', 'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty',
          'float32/expand', 'float32/offset', 'float32/step', 'float32/t', 'float64/contig',
          'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('std_mean', 'function'): (
        "message differs: tensorviz 'std and var only support floating point and complex "
        "dtypes' vs PyTorch 'std_mean only support floating point and complex dtypes' "
        '[std_mean#0 bool contig]',
        (
          'bool/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('std_mean', 'out'): (
        'message differs: tensorviz "std_mean() got an unexpected keyword argument \'out\'" vs '
        'PyTorch "std_mean() received an invalid combination of arguments - got (Tensor, '
        'out=tuple), but expected ... [std_mean#0 float16 contig]',
        (
          'bfloat16/contig', 'complex128/contig', 'complex64/contig', 'float16/contig',
          'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig',
        )),
    ('var_mean', 'function'): (
        "message differs: tensorviz 'std and var only support floating point and complex "
        "dtypes' vs PyTorch 'var_mean only support floating point and complex dtypes' "
        '[var_mean#0 bool contig]',
        (
          'bool/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('var_mean', 'out'): (
        'message differs: tensorviz "var_mean() got an unexpected keyword argument \'out\'" vs '
        'PyTorch "var_mean() received an invalid combination of arguments - got (Tensor, '
        'out=tuple), but expected ... [var_mean#0 float16 contig]',
        (
          'bfloat16/contig', 'complex128/contig', 'complex64/contig', 'float16/contig',
          'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig',
        )),
    ('count_nonzero', 'out'): (
        'message differs: tensorviz "count_nonzero() got an unexpected keyword argument '
        '\'out\'" vs PyTorch "count_nonzero() received an invalid combination of arguments - '
        'got (Tensor, out=Tensor), but exp... [count_nonzero#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('norm', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Expected out tensor to have "
        "dtype float, but got double instead'); tensorviz accepts [norm#0 float32 contig]",
        ('float32/contig',)),
    ('sort', 'function'): (
        "message differs: tensorviz 'Sort does not support complex dtypes on CPU' vs PyTorch "
        "' Sort does not support complex dtypes on CPU' [sort#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('sort', 'method'): (
        "message differs: tensorviz 'Sort does not support complex dtypes on CPU' vs PyTorch "
        "' Sort does not support complex dtypes on CPU' [sort#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('argsort', 'function'): (
        "message differs: tensorviz 'argsort() received an invalid combination of arguments: "
        "with `stable`, dim and descending must b... vs PyTorch 'argsort() takes from 2 to 1 "
        "positional arguments but 2 were given' [argsort#1 bool contig]",
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('argsort', 'method'): (
        "message differs: tensorviz 'argsort() received an invalid combination of arguments: "
        "with `stable`, dim and descending must b... vs PyTorch 'argsort() takes from 1 to 0 "
        "positional arguments but 1 were given' [argsort#1 bool contig]",
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('argsort', 'out'): (
        'tensorviz refuses with TypeError("argsort() got an unexpected keyword argument '
        '\'out\'"); PyTorch accepts [argsort#0 bool contig]; out= (cast out): tensorviz raises '
        'TypeError("argsort() got an unexpected keyword argument \'out\'") where PyTorch raises'
        " RuntimeError('Expected out tensor to have dtype long int, but got double instead') "
        '[argsort#0 int64 contig]',
        (
          'bfloat16/contig', 'bool/contig', 'float16/contig', 'float32/0d', 'float32/contig',
          'float32/empty', 'float32/expand', 'float32/offset', 'float32/step', 'float32/t',
          'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('msort', 'function'): (
        "message differs: tensorviz 'Sort does not support complex dtypes on CPU' vs PyTorch "
        "' Sort does not support complex dtypes on CPU' [msort#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('msort', 'method'): (
        "message differs: tensorviz 'Sort does not support complex dtypes on CPU' vs PyTorch "
        "' Sort does not support complex dtypes on CPU' [msort#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('topk', 'function'): (
        "message differs: tensorviz 'topk does not support complex dtypes on CPU' vs PyTorch "
        "' topk does not support complex dtypes on CPU' [topk#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('topk', 'method'): (
        "message differs: tensorviz 'topk does not support complex dtypes on CPU' vs PyTorch "
        "' topk does not support complex dtypes on CPU' [topk#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig',)),
    ('softmax', 'out'): (
        'tensorviz refuses with TypeError("softmax() got an unexpected keyword argument '
        '\'out\'"); PyTorch accepts [softmax#1 bool contig]; out= (cast out): tensorviz raises '
        'TypeError("softmax() got an unexpected keyword argument \'out\'") where PyTorch raises'
        " RuntimeError('Expected out tensor to have dtype double, but got float instead') "
        '[softmax#1 int64 contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('log_softmax', 'out'): (
        'tensorviz refuses with TypeError("log_softmax() got an unexpected keyword argument '
        '\'out\'"); PyTorch accepts [log_softmax#1 bool contig]; out= (cast out): tensorviz '
        'raises TypeError("log_softmax() got an unexpected keyword argument \'out\'") where '
        "PyTorch raises RuntimeError('Expected out tensor to have dtype double, but got float"
        " instead') [log_softmax#1 int64 contig]",
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('special.softmax', 'out'): (
        'message differs: tensorviz "_special_softmax() got an unexpected keyword argument '
        '\'out\'" vs PyTorch "special_softmax() got an unexpected keyword argument \'out\'" '
        '[special.softmax#1 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('special.log_softmax', 'out'): (
        'message differs: tensorviz "_special_log_softmax() got an unexpected keyword '
        'argument \'out\'" vs PyTorch "special_log_softmax() got an unexpected keyword argument'
        ' \'out\'" [special.log_softmax#1 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('renorm', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Expected out tensor to have "
        "dtype float, but got double instead'); tensorviz accepts [renorm#0 float32 contig]",
        ('float32/contig',)),
    ('histc', 'function'): (
        'message differs: tensorviz \'"histogram_cpu" not implemented for \\\'ComplexFloat\\\'\' vs'
        ' PyTorch \'"aminmax_cpu" not implemented for \\\'ComplexFloat\\\'\' [histc#1 complex64 '
        'contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('histc', 'method'): (
        'message differs: tensorviz \'"histogram_cpu" not implemented for \\\'ComplexFloat\\\'\' vs'
        ' PyTorch \'"aminmax_cpu" not implemented for \\\'ComplexFloat\\\'\' [histc#1 complex64 '
        'contig]',
        ('complex128/contig', 'complex64/contig',)),
    ('histogram', 'function'): (
        'message differs: tensorviz \'"histogramdd" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"histogram_cpu" not implemented for \\\'Bool\\\'\' [histogram#1 bool contig]',
        (
          'bool/contig', 'complex128/contig', 'complex64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('histogram', 'method'): (
        'message differs: tensorviz \'"histogramdd" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"histogram_cpu" not implemented for \\\'Bool\\\'\' [histogram#1 bool contig]',
        (
          'bool/contig', 'complex128/contig', 'complex64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('diff', 'out'): (
        'tensorviz refuses with TypeError("diff() got an unexpected keyword argument \'out\'");'
        ' PyTorch accepts [diff#0 bool contig]; tensorviz raises TypeError("diff() got an '
        'unexpected keyword argument \'out\'") where PyTorch raises IndexError(\'start out of '
        "range (expected to be in range of [0, 0], but got 1)') [diff#1 float32 empty]",
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('gradient', 'out'): (
        'message differs: tensorviz "gradient() got an unexpected keyword argument \'out\'" vs '
        "PyTorch 'gradient() received an invalid combination of arguments - got (Tensor, "
        'out=tuple), but expected ... [gradient#0 int8 contig]',
        (
          'bfloat16/contig', 'complex128/contig', 'complex64/contig', 'float16/contig',
          'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset', 'float32/step',
          'float32/t', 'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig',
          'int8/contig',
        )),
    ('trapezoid', 'out'): (
        'message differs: tensorviz "trapezoid() got an unexpected keyword argument \'out\'" vs'
        " PyTorch 'trapezoid() received an invalid combination of arguments - got (Tensor, "
        'out=Tensor), but expecte... [trapezoid#0 uint8 contig]',
        (
          'bfloat16/contig', 'complex128/contig', 'complex64/contig', 'float16/contig',
          'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset', 'float32/step',
          'float32/t', 'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig',
          'int8/contig', 'uint8/contig',
        )),
    ('trapz', 'out'): (
        'message differs: tensorviz "trapz() got an unexpected keyword argument \'out\'" vs '
        "PyTorch 'trapz() received an invalid combination of arguments - got (Tensor, "
        'out=Tensor), but expected on... [trapz#0 uint8 contig]',
        (
          'bfloat16/contig', 'complex128/contig', 'complex64/contig', 'float16/contig',
          'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset', 'float32/step',
          'float32/t', 'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig',
          'int8/contig', 'uint8/contig',
        )),
    ('cumulative_trapezoid', 'out'): (
        'message differs: tensorviz "cumulative_trapezoid() got an unexpected keyword '
        'argument \'out\'" vs PyTorch \'cumulative_trapezoid() received an invalid combination '
        'of arguments - got (Tensor, out=Tensor), ... [cumulative_trapezoid#0 uint8 contig]',
        (
          'bfloat16/contig', 'complex128/contig', 'complex64/contig', 'float16/contig',
          'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset', 'float32/step',
          'float32/t', 'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig',
          'int8/contig', 'uint8/contig',
        )),
    ('corrcoef', 'method'): (
        'message differs: tensorviz "corrcoef() got an unexpected keyword argument '
        '\'correction\'" vs PyTorch \'Tensor.corrcoef() takes no keyword arguments\' [corrcoef#1 '
        'bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('cummax', 'function'): (
        "message differs: tensorviz 'Dimension out of range (expected to be in range of [-1, "
        "0], but got 1)' vs PyTorch 'cummax(): Expected reduction dim -1 or 0 for scalar but "
        "got 1' [cummax#0 float32 0d]",
        ('float32/0d',)),
    ('cummax', 'method'): (
        "message differs: tensorviz 'Dimension out of range (expected to be in range of [-1, "
        "0], but got 1)' vs PyTorch 'cummax(): Expected reduction dim -1 or 0 for scalar but "
        "got 1' [cummax#0 float32 0d]",
        ('float32/0d',)),
    ('cummin', 'function'): (
        "message differs: tensorviz 'Dimension out of range (expected to be in range of [-1, "
        "0], but got 1)' vs PyTorch 'cummin(): Expected reduction dim -1 or 0 for scalar but "
        "got 1' [cummin#0 float32 0d]",
        ('float32/0d',)),
    ('cummin', 'method'): (
        "message differs: tensorviz 'Dimension out of range (expected to be in range of [-1, "
        "0], but got 1)' vs PyTorch 'cummin(): Expected reduction dim -1 or 0 for scalar but "
        "got 1' [cummin#0 float32 0d]",
        ('float32/0d',)),
    ('ravel', 'method'): (
        "message differs: tensorviz 'ravel() takes 1 positional argument but 2 were given' vs"
        " PyTorch 'Tensor.ravel() takes no arguments (1 given)' [ravel#1 bool contig]",
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('unflatten', 'function'): (
        "message differs: tensorviz 'unflatten got an unexpected error:\\nDimension specified "
        "as 0 but tensor has no dimensions' vs PyTorch 'unflatten got an unexpected "
        'error:\\nDimension specified as 0 but tensor has no dimensions\\nExcep... [unflatten#1'
        ' float32 0d]',
        ('float32/0d',)),
    ('unflatten', 'method'): (
        "message differs: tensorviz 'unflatten got an unexpected error:\\nDimension specified "
        "as 0 but tensor has no dimensions' vs PyTorch 'unflatten got an unexpected "
        'error:\\nDimension specified as 0 but tensor has no dimensions\\nExcep... [unflatten#1'
        ' float32 0d]',
        ('float32/0d',)),
    ('squeeze', 'out'): (
        'message differs: tensorviz "squeeze() got an unexpected keyword argument \'out\'" vs '
        'PyTorch "squeeze() received an invalid combination of arguments - got (Tensor, '
        'out=Tensor), but expected ... [squeeze#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('swapdims', 'out'): (
        'message differs: tensorviz "transpose() got an unexpected keyword argument \'out\'" vs'
        ' PyTorch "swapdims() got an unexpected keyword argument \'out\'" [swapdims#0 bool '
        'contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('movedim', 'out'): (
        'message differs: tensorviz "movedim() got an unexpected keyword argument \'out\'" vs '
        "PyTorch 'movedim() received an invalid combination of arguments - got (Tensor, int, "
        'int, out=Tensor), but... [movedim#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('moveaxis', 'out'): (
        'message differs: tensorviz "movedim() got an unexpected keyword argument \'out\'" vs '
        "PyTorch 'moveaxis() received an invalid combination of arguments - got (Tensor, int,"
        ' int, out=Tensor), bu... [moveaxis#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('narrow', 'out'): (
        'message differs: tensorviz "narrow() got an unexpected keyword argument \'out\'" vs '
        "PyTorch 'narrow() received an invalid combination of arguments - got (Tensor, int, "
        'int, int, out=Tensor),... [narrow#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('expand', 'method'): (
        "message differs: tensorviz 'Trying to create tensor with negative dimension -1: "
        "[-1]' vs PyTorch 'numel: integer multiplication overflow' [expand#2 float32 0d]",
        ('float32/0d',)),
    ('split', 'function'): (
        "tensorviz raises IndexError('Dimension out of range (expected to be in range of [-1,"
        " 0], but got 1)') where PyTorch raises RuntimeError('split expects at least a "
        "1-dimensional tensor') [split#1 float32 0d]",
        ('float32/0d',)),
    ('split', 'method'): (
        "tensorviz raises IndexError('Dimension out of range (expected to be in range of [-1,"
        " 0], but got 1)') where PyTorch raises RuntimeError('split expects at least a "
        "1-dimensional tensor') [split#1 float32 0d]",
        ('float32/0d',)),
    ('split', 'out'): (
        'message differs: tensorviz "_split_function() got an unexpected keyword argument '
        '\'out\'" vs PyTorch "split() got an unexpected keyword argument \'out\'" [split#0 bool '
        'contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('split_with_sizes', 'method'): (
        "tensorviz raises IndexError('Dimension out of range (expected to be in range of [-1,"
        " 0], but got 1)') where PyTorch raises RuntimeError('split expects at least a "
        "1-dimensional tensor') [split_with_sizes#1 float32 0d]",
        ('float32/0d',)),
    ('tensor_split', 'out'): (
        "message differs: tensorviz 'tensor_split() received an invalid combination of "
        'arguments - got (Tensor, int, out=tuple), but ... vs PyTorch "tensor_split() '
        'received an invalid combination of arguments - got (Tensor, int, out=tuple), but ...'
        ' [tensor_split#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('hsplit', 'out'): (
        'message differs: tensorviz "hsplit() got an unexpected keyword argument \'out\'" vs '
        "PyTorch 'hsplit() received an invalid combination of arguments - got (Tensor, int, "
        'out=tuple), but expect... [hsplit#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('vsplit', 'out'): (
        'message differs: tensorviz "vsplit() got an unexpected keyword argument \'out\'" vs '
        "PyTorch 'vsplit() received an invalid combination of arguments - got (Tensor, int, "
        'out=tuple), but expect... [vsplit#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('dsplit', 'out'): (
        'message differs: tensorviz "dsplit() got an unexpected keyword argument \'out\'" vs '
        "PyTorch 'dsplit() received an invalid combination of arguments - got (Tensor, int, "
        'out=tuple), but expect... [dsplit#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('unbind', 'function'): (
        "message differs: tensorviz 'Dimension specified as 0 but tensor has no dimensions' "
        "vs PyTorch 'Dimension out of range (expected to be in range of [-1, 0], but got 1)' "
        '[unbind#1 float32 0d]',
        ('float32/0d',)),
    ('unbind', 'method'): (
        "message differs: tensorviz 'Dimension specified as 0 but tensor has no dimensions' "
        "vs PyTorch 'Dimension out of range (expected to be in range of [-1, 0], but got 1)' "
        '[unbind#1 float32 0d]',
        ('float32/0d',)),
    ('view_as_complex', 'function'): (
        "message differs: tensorviz 'Tensor must have a last dimension of size 2' vs PyTorch "
        "'Input tensor must have one or more dimensions' [view_as_complex#0 float32 0d]",
        ('float32/0d',)),
    ('repeat_interleave', 'function'): (
        "tensorviz raises RuntimeError('repeats must have the same size as input along dim, "
        "but got repeats.size(0) = 3 and... where PyTorch raises IndexError('Dimension "
        "specified as 0 but tensor has no dimensions') [repeat_interleave#1 float32 0d]",
        ('float32/0d',)),
    ('repeat_interleave', 'method'): (
        "tensorviz raises RuntimeError('repeats must have the same size as input along dim, "
        "but got repeats.size(0) = 3 and... where PyTorch raises IndexError('Dimension "
        "specified as 0 but tensor has no dimensions') [repeat_interleave#1 float32 0d]",
        ('float32/0d',)),
    ('repeat_interleave', 'out'): (
        'message differs: tensorviz "repeat_interleave() got an unexpected keyword argument '
        '\'out\'" vs PyTorch "repeat_interleave() received an invalid combination of arguments '
        '- got (Tensor, int, out=Tensor)... [repeat_interleave#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('linalg.vander', 'function'): (
        "PyTorch refuses with RuntimeError('linalg.vander supports floating point, complex, "
        "and integer tensors, but got Bool'); tensorviz accepts [linalg.vander#0 bool "
        "contig]; message differs: tensorviz 'linalg.vander: x must have at least one "
        "dimension' vs PyTorch 'N must be greater than 1.' [linalg.vander#0 float32 0d]; "
        "tensorviz refuses with RuntimeError('linalg.vander: x must have at least one "
        "dimension'); PyTorch accepts [linalg.vander#1 float32 0d]",
        ('bfloat16/contig', 'bool/contig', 'float16/contig', 'float32/0d', 'float32/empty',)),
    ('linalg.vander', 'out'): (
        'message differs: tensorviz "vander() got an unexpected keyword argument \'out\'" vs '
        'PyTorch "linalg_vander() got an unexpected keyword argument \'out\'" [linalg.vander#0 '
        'uint8 contig]',
        (
          'complex128/contig', 'complex64/contig', 'float32/0d', 'float32/contig',
          'float32/empty', 'float32/expand', 'float32/offset', 'float32/step', 'float32/t',
          'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('scatter', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Expected out tensor to have "
        "dtype long int, but got double instead'); tensorviz accepts [scatter#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('scatter_add', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Expected out tensor to have "
        "dtype long int, but got double instead'); tensorviz accepts [scatter_add#0 int64 "
        'contig]',
        ('float32/contig', 'int64/contig',)),
    ('scatter_reduce', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Expected out tensor to have "
        "dtype long int, but got double instead'); tensorviz accepts [scatter_reduce#0 int64 "
        'contig]',
        ('float32/contig', 'int64/contig',)),
    ('index_add', 'function'): (
        "tensorviz raises RuntimeError('index_add_(): Number of indices (5) should be equal "
        "to source.size(dim): (1), for d... where PyTorch raises IndexError('Dimension "
        "specified as 0 but tensor has no dimensions') [index_add#0 float32 0d]",
        ('float32/0d',)),
    ('index_add', 'method'): (
        "tensorviz raises RuntimeError('index_add_(): Number of indices (5) should be equal "
        "to source.size(dim): (1), for d... where PyTorch raises IndexError('Dimension "
        "specified as 0 but tensor has no dimensions') [index_add#0 float32 0d]",
        ('float32/0d',)),
    ('index_add', 'inplace'): (
        "tensorviz raises RuntimeError('index_add_(): Number of indices (5) should be equal "
        "to source.size(dim): (1), for d... where PyTorch raises IndexError('Dimension "
        "specified as 0 but tensor has no dimensions') [index_add#0 float32 0d]",
        ('float32/0d',)),
    ('index_add', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Expected out tensor to have "
        "dtype long int, but got double instead'); tensorviz accepts [index_add#0 int64 "
        'contig]',
        ('float32/contig', 'int64/contig',)),
    ('index_copy', 'function'): (
        "message differs: tensorviz 'index_copy_(): Number of indices (2) should be equal to "
        "source.size(dim) (1)' vs PyTorch 'index_copy_(): When source is scalar, index should"
        " have one element (got 2)' [index_copy#0 float32 0d]",
        ('float32/0d',)),
    ('index_copy', 'method'): (
        "message differs: tensorviz 'index_copy_(): Number of indices (2) should be equal to "
        "source.size(dim) (1)' vs PyTorch 'index_copy_(): When source is scalar, index should"
        " have one element (got 2)' [index_copy#0 float32 0d]",
        ('float32/0d',)),
    ('index_copy', 'inplace'): (
        "message differs: tensorviz 'index_copy_(): Number of indices (2) should be equal to "
        "source.size(dim) (1)' vs PyTorch 'index_copy_(): When source is scalar, index should"
        " have one element (got 2)' [index_copy#0 float32 0d]",
        ('float32/0d',)),
    ('index_copy', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Expected out tensor to have "
        "dtype long int, but got double instead'); tensorviz accepts [index_copy#0 int64 "
        'contig]',
        ('float32/contig', 'int64/contig',)),
    ('index_fill', 'out'): (
        'message differs: tensorviz "index_fill() got an unexpected keyword argument \'out\'" '
        "vs PyTorch 'index_fill() received an invalid combination of arguments - got (Tensor,"
        ' int, Tensor, int, out=T... [index_fill#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('index_reduce', 'function'): (
        'PyTorch refuses with NotImplementedError(\'"index_reduce_func_exclude_input_init" not'
        " implemented for \\'Bool\\''); tensorviz accepts [index_reduce#1 bool contig]; "
        'tensorviz refuses with NotImplementedError(\'"index_func_" not implemented for '
        "\\'ComplexFloat\\''); PyTorch accepts [index_reduce#0 complex64 contig]; message "
        'differs: tensorviz \'"index_func_" not implemented for \\\'ComplexFloat\\\'\' vs PyTorch '
        '\'"index_reduce_func_exclude_input_init" not implemented for \\\'ComplexFloat\\\'\' '
        "[index_reduce#1 complex64 contig]; tensorviz raises RuntimeError('index_reduce_(): "
        'Number of indices (5) should be equal to source.size(dim): (1), fo... where PyTorch '
        "raises IndexError('Dimension specified as 0 but tensor has no dimensions') "
        '[index_reduce#0 float32 0d]',
        ('bool/contig', 'complex128/contig', 'complex64/contig', 'float32/0d',)),
    ('index_reduce', 'method'): (
        'PyTorch refuses with NotImplementedError(\'"index_reduce_func_exclude_input_init" not'
        " implemented for \\'Bool\\''); tensorviz accepts [index_reduce#1 bool contig]; "
        'tensorviz refuses with NotImplementedError(\'"index_func_" not implemented for '
        "\\'ComplexFloat\\''); PyTorch accepts [index_reduce#0 complex64 contig]; message "
        'differs: tensorviz \'"index_func_" not implemented for \\\'ComplexFloat\\\'\' vs PyTorch '
        '\'"index_reduce_func_exclude_input_init" not implemented for \\\'ComplexFloat\\\'\' '
        "[index_reduce#1 complex64 contig]; tensorviz raises RuntimeError('index_reduce_(): "
        'Number of indices (5) should be equal to source.size(dim): (1), fo... where PyTorch '
        "raises IndexError('Dimension specified as 0 but tensor has no dimensions') "
        '[index_reduce#0 float32 0d]',
        ('bool/contig', 'complex128/contig', 'complex64/contig', 'float32/0d',)),
    ('index_reduce', 'inplace'): (
        'PyTorch refuses with NotImplementedError(\'"index_reduce_func_exclude_input_init" not'
        " implemented for \\'Bool\\''); tensorviz accepts [index_reduce#1 bool contig]; "
        'tensorviz refuses with NotImplementedError(\'"index_func_" not implemented for '
        "\\'ComplexFloat\\''); PyTorch accepts [index_reduce#0 complex64 contig]; message "
        'differs: tensorviz \'"index_func_" not implemented for \\\'ComplexFloat\\\'\' vs PyTorch '
        '\'"index_reduce_func_exclude_input_init" not implemented for \\\'ComplexFloat\\\'\' '
        "[index_reduce#1 complex64 contig]; tensorviz raises RuntimeError('index_reduce_(): "
        'Number of indices (5) should be equal to source.size(dim): (1), fo... where PyTorch '
        "raises IndexError('Dimension specified as 0 but tensor has no dimensions') "
        '[index_reduce#0 float32 0d]',
        ('bool/contig', 'complex128/contig', 'complex64/contig', 'float32/0d',)),
    ('index_reduce', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('Expected out tensor to have "
        "dtype long int, but got double instead'); tensorviz accepts [index_reduce#0 int64 "
        'contig]; tensorviz refuses with NotImplementedError(\'"index_func_" not implemented '
        "for \\'ComplexFloat\\''); PyTorch accepts [index_reduce#0 complex64 contig]",
        ('complex128/contig', 'complex64/contig', 'float32/contig', 'int64/contig',)),
    ('index_put', 'function'): (
        "message differs: tensorviz 'index 2 is out of bounds for dimension 0 with size 0' vs"
        " PyTorch 'index is out of bounds for dimension with size 0' [index_put#0 float32 "
        'empty]',
        ('float32/0d', 'float32/empty',)),
    ('index_put', 'method'): (
        "message differs: tensorviz 'index 2 is out of bounds for dimension 0 with size 0' vs"
        " PyTorch 'index is out of bounds for dimension with size 0' [index_put#0 float32 "
        'empty]',
        ('float32/0d', 'float32/empty',)),
    ('index_put', 'inplace'): (
        "message differs: tensorviz 'index 2 is out of bounds for dimension 0 with size 0' vs"
        " PyTorch 'index is out of bounds for dimension with size 0' [index_put#0 float32 "
        'empty]',
        ('float32/0d', 'float32/empty',)),
    ('take', 'function'): (
        "message differs: tensorviz 'out of range: tried to access index 11 on a tensor of 0 "
        "elements.' vs PyTorch 'take(): tried to take from an empty tensor' [take#0 float32 "
        'empty]',
        ('float32/empty',)),
    ('take', 'method'): (
        "message differs: tensorviz 'out of range: tried to access index 11 on a tensor of 0 "
        "elements.' vs PyTorch 'take(): tried to take from an empty tensor' [take#0 float32 "
        'empty]',
        ('float32/empty',)),
    ('masked_fill', 'function'): (
        "message differs: tensorviz 'The size of tensor a (0) must match the size of tensor b"
        " (3) at non-singleton dimension 0' vs PyTorch 'The size of tensor a (3) must match "
        "the size of tensor b (0) at non-singleton dimension 0' [masked_fill#0 float32 empty]",
        ('float32/empty',)),
    ('masked_fill', 'method'): (
        "message differs: tensorviz 'The size of tensor a (0) must match the size of tensor b"
        " (3) at non-singleton dimension 0' vs PyTorch 'The size of tensor a (3) must match "
        "the size of tensor b (0) at non-singleton dimension 0' [masked_fill#0 float32 empty]",
        ('float32/empty',)),
    ('masked_fill', 'out'): (
        'message differs: tensorviz "masked_fill() got an unexpected keyword argument \'out\'" '
        "vs PyTorch 'masked_fill() received an invalid combination of arguments - got "
        '(Tensor, Tensor, int, out=Tenso... [masked_fill#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('masked_scatter', 'function'): (
        "message differs: tensorviz 'The size of tensor a (0) must match the size of tensor b"
        " (3) at non-singleton dimension 0' vs PyTorch 'The size of tensor a (3) must match "
        "the size of tensor b (0) at non-singleton dimension 0' [masked_scatter#0 float32 "
        'empty]',
        ('float32/empty',)),
    ('masked_scatter', 'method'): (
        "message differs: tensorviz 'The size of tensor a (0) must match the size of tensor b"
        " (3) at non-singleton dimension 0' vs PyTorch 'The size of tensor a (3) must match "
        "the size of tensor b (0) at non-singleton dimension 0' [masked_scatter#0 float32 "
        'empty]',
        ('float32/empty',)),
    ('masked_scatter', 'inplace'): (
        "message differs: tensorviz 'expand([3, 4], size=[]): the number of sizes provided "
        "(0) must be greater or equal to the number... vs PyTorch 'expand(CPUBoolType{[3, "
        '4]}, size=[]): the number of sizes provided (0) must be greater or equal ... '
        '[masked_scatter#0 float32 0d]',
        ('float32/0d',)),
    ('masked_select', 'function'): (
        "message differs: tensorviz 'The size of tensor a (0) must match the size of tensor b"
        " (3) at non-singleton dimension 0' vs PyTorch 'The size of tensor a (3) must match "
        "the size of tensor b (0) at non-singleton dimension 0' [masked_select#0 float32 "
        'empty]',
        ('float32/empty',)),
    ('masked_select', 'method'): (
        "message differs: tensorviz 'The size of tensor a (0) must match the size of tensor b"
        " (3) at non-singleton dimension 0' vs PyTorch 'The size of tensor a (3) must match "
        "the size of tensor b (0) at non-singleton dimension 0' [masked_select#0 float32 "
        'empty]',
        ('float32/empty',)),
    ('nonzero', 'out'): (
        "tensorviz raises RuntimeError('nonzero does not support the out kwarg when as_tuple "
        'is True\') where PyTorch raises TypeError("nonzero(): argument \'out\' must be Tensor, '
        'not tuple") [nonzero#1 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('unique', 'function'): (
        'message differs: tensorviz \'"unique" not implemented for \\\'ComplexFloat\\\'\' vs '
        'PyTorch \'"unique_dim" not implemented for \\\'ComplexFloat\\\'\' [unique#2 complex64 '
        'contig]',
        ('complex128/contig', 'complex64/contig', 'float32/0d',)),
    ('unique', 'method'): (
        'message differs: tensorviz \'"unique" not implemented for \\\'ComplexFloat\\\'\' vs '
        'PyTorch \'"unique_dim" not implemented for \\\'ComplexFloat\\\'\' [unique#2 complex64 '
        'contig]',
        ('complex128/contig', 'complex64/contig', 'float32/0d',)),
    ('unique', 'out'): (
        'message differs: tensorviz "unique() got an unexpected keyword argument \'out\'" vs '
        'PyTorch "_return_output() got an unexpected keyword argument \'out\'" [unique#0 bool '
        'contig]',
        (
          'bfloat16/contig', 'bool/contig', 'float16/contig', 'float32/0d', 'float32/contig',
          'float32/empty', 'float32/expand', 'float32/offset', 'float32/step', 'float32/t',
          'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('unique_consecutive', 'out'): (
        'message differs: tensorviz "unique_consecutive() got an unexpected keyword argument '
        '\'out\'" vs PyTorch "_consecutive_return_output() got an unexpected keyword argument '
        '\'out\'" [unique_consecutive#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'float16/contig', 'float32/0d', 'float32/contig',
          'float32/empty', 'float32/expand', 'float32/offset', 'float32/step', 'float32/t',
          'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('isin', 'function'): (
        "message differs: tensorviz 'Unsupported input type encountered for isin(): "
        "tensorviz.bool' vs PyTorch 'Unsupported input type encountered for isin(): Bool' "
        '[isin#0 bool contig]',
        ('bool/contig', 'complex128/contig', 'complex64/contig',)),
    ('isin', 'out'): (
        'tensorviz refuses with TypeError("isin() got an unexpected keyword argument \'out\'");'
        ' PyTorch accepts [isin#0 uint8 contig]; out= (cast out): tensorviz raises '
        'TypeError("isin() got an unexpected keyword argument \'out\'") where PyTorch raises '
        "RuntimeError('Expected out tensor to have dtype bool, but got double instead') "
        '[isin#0 int64 contig]',
        (
          'bfloat16/contig', 'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty',
          'float32/expand', 'float32/offset', 'float32/step', 'float32/t', 'float64/contig',
          'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('matmul', 'out'): (
        "out= (cast out): message differs: tensorviz 'Expected out tensor to have dtype long "
        "int, but got double instead' vs PyTorch 'addmv input tensors must have the same "
        "dtype, but got Double, Long, and Long' [matmul#1 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('linalg.matmul', 'out'): (
        "out= (cast out): message differs: tensorviz 'Expected out tensor to have dtype long "
        "int, but got double instead' vs PyTorch 'addmv input tensors must have the same "
        "dtype, but got Double, Long, and Long' [linalg.matmul#1 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('mv', 'function'): (
        "tensorviz raises RuntimeError('vector + matrix @ vector expected, got 1, 0, 0') "
        "where PyTorch raises IndexError('Dimension specified as 0 but tensor has no "
        "dimensions') [mv#0 float64 0d]",
        ('float64/0d',)),
    ('mv', 'method'): (
        "tensorviz raises RuntimeError('vector + matrix @ vector expected, got 1, 0, 0') "
        "where PyTorch raises IndexError('Dimension specified as 0 but tensor has no "
        "dimensions') [mv#0 float64 0d]",
        ('float64/0d',)),
    ('mv', 'out'): (
        "out= (cast out): message differs: tensorviz 'Expected out tensor to have dtype long "
        "int, but got double instead' vs PyTorch 'addmv input tensors must have the same "
        "dtype, but got Double, Long, and Long' [mv#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('vdot', 'function'): (
        'message differs: tensorviz \'"vdot" not implemented for \\\'Bool\\\'\' vs PyTorch \'"dot" '
        "not implemented for \\'Bool\\'' [vdot#0 bool contig]",
        ('bool/contig',)),
    ('vdot', 'method'): (
        'message differs: tensorviz \'"vdot" not implemented for \\\'Bool\\\'\' vs PyTorch \'"dot" '
        "not implemented for \\'Bool\\'' [vdot#0 bool contig]",
        ('bool/contig',)),
    ('inner', 'function'): (
        'message differs: tensorviz \'"inner" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"addmm_impl_cpu_" not implemented for \\\'Bool\\\'\' [inner#0 bool contig]',
        ('bool/contig',)),
    ('inner', 'method'): (
        'message differs: tensorviz \'"inner" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"addmm_impl_cpu_" not implemented for \\\'Bool\\\'\' [inner#0 bool contig]',
        ('bool/contig',)),
    ('inner', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('tensordot: Expected the output "
        'tensor to have dtype Long, but got an output tensor ...; tensorviz accepts [inner#0 '
        'int64 contig]',
        ('float32/contig', 'int64/contig',)),
    ('addmm', 'inplace'): (
        'tensorviz raises NotImplementedError(\'"addmm_impl_cpu_" not implemented for '
        "\\'Bool\\'') where PyTorch raises RuntimeError('Bad in-place call: input tensor size "
        "[2] and output tensor size [3, 2] should match') [addmm#1 bool contig]; message "
        'differs: tensorviz "output with shape [2] doesn\'t match the broadcast shape [3, 2]" '
        "vs PyTorch 'Bad in-place call: input tensor size [2] and output tensor size [3, 2] "
        "should match' [addmm#1 uint8 contig]",
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'float64/expand',
          'float64/offset', 'float64/step', 'float64/t', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('addmv', 'function'): (
        "message differs: tensorviz 'vector + matrix @ vector expected, got 1, 0, 0' vs "
        "PyTorch 'vector + matrix @ vector expected, got 0, 0, 0' [addmv#0 float64 0d]",
        ('float64/0d',)),
    ('addmv', 'method'): (
        "message differs: tensorviz 'vector + matrix @ vector expected, got 1, 0, 0' vs "
        "PyTorch 'vector + matrix @ vector expected, got 0, 0, 0' [addmv#0 float64 0d]",
        ('float64/0d',)),
    ('addmv', 'inplace'): (
        "tensorviz refuses with RuntimeError('unsupported operation: more than one element of"
        ' the written-to tensor refers to a s...; PyTorch accepts [addmv#0 float64 expand]; '
        "message differs: tensorviz 'vector + matrix @ vector expected, got 1, 0, 0' vs "
        "PyTorch 'vector + matrix @ vector expected, got 0, 0, 0' [addmv#0 float64 0d]",
        ('float64/0d', 'float64/expand',)),
    ('addr', 'inplace'): (
        "message differs: tensorviz 'The expanded size of the tensor (0) must match the "
        "existing size (4) at non-singleton dimension ... vs PyTorch 'size mismatch, input: "
        "[0, 4], v1: [0], v2: [0]' [addr#0 float64 empty]",
        ('float64/empty',)),
    ('addbmm', 'function'): (
        'message differs: tensorviz \'"bmm" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"addmm_impl_cpu_" not implemented for \\\'Bool\\\'\' [addbmm#0 bool contig]; tensorviz '
        "raises RuntimeError('batch1 must be a 3D tensor') where PyTorch raises "
        "IndexError('Dimension specified as 1 but tensor has no dimensions') [addbmm#0 "
        'float64 0d]',
        ('bool/contig', 'float64/0d',)),
    ('addbmm', 'method'): (
        'message differs: tensorviz \'"bmm" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"addmm_impl_cpu_" not implemented for \\\'Bool\\\'\' [addbmm#0 bool contig]; tensorviz '
        "raises RuntimeError('batch1 must be a 3D tensor') where PyTorch raises "
        "IndexError('Dimension specified as 1 but tensor has no dimensions') [addbmm#0 "
        'float64 0d]',
        ('bool/contig', 'float64/0d',)),
    ('addbmm', 'inplace'): (
        'message differs: tensorviz \'"bmm" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"addmm_impl_cpu_" not implemented for \\\'Bool\\\'\' [addbmm#0 bool contig]; tensorviz '
        "raises RuntimeError('batch1 must be a 3D tensor') where PyTorch raises "
        "IndexError('Dimension specified as 1 but tensor has no dimensions') [addbmm#0 "
        'float64 0d]',
        ('bool/contig', 'float64/0d',)),
    ('baddbmm', 'function'): (
        'message differs: tensorviz \'"bmm" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"baddbmm" not implemented for \\\'Bool\\\'\' [baddbmm#0 bool contig]; tensorviz raises '
        "RuntimeError('batch1 must be a 3D tensor') where PyTorch raises "
        "IndexError('Dimension specified as 0 but tensor has no dimensions') [baddbmm#0 "
        'float64 0d]',
        ('bool/contig', 'float64/0d',)),
    ('baddbmm', 'method'): (
        'message differs: tensorviz \'"bmm" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"baddbmm" not implemented for \\\'Bool\\\'\' [baddbmm#0 bool contig]; tensorviz raises '
        "RuntimeError('batch1 must be a 3D tensor') where PyTorch raises "
        "IndexError('Dimension specified as 0 but tensor has no dimensions') [baddbmm#0 "
        'float64 0d]',
        ('bool/contig', 'float64/0d',)),
    ('baddbmm', 'inplace'): (
        'message differs: tensorviz \'"bmm" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"baddbmm" not implemented for \\\'Bool\\\'\' [baddbmm#0 bool contig]; tensorviz refuses '
        "with RuntimeError('unsupported operation: more than one element of the written-to "
        'tensor refers to a s...; PyTorch accepts [baddbmm#0 float64 expand]; tensorviz '
        "raises RuntimeError('batch1 must be a 3D tensor') where PyTorch raises "
        "IndexError('Dimension specified as 0 but tensor has no dimensions') [baddbmm#0 "
        'float64 0d]',
        ('bool/contig', 'float64/0d', 'float64/expand',)),
    ('chain_matmul', 'function'): (
        'PyTorch refuses with NotImplementedError(\'"addmm_impl_cpu_" not implemented for '
        "\\'Bool\\''); tensorviz accepts [chain_matmul#0 bool contig]; message differs: "
        "tensorviz 'multi_dot(): the first tensor must be 1D or 2D but got 0D' vs PyTorch "
        "'Tensor dimension is 0, expected 2 instead.' [chain_matmul#0 float64 0d]",
        ('bool/contig', 'float64/0d',)),
    ('chain_matmul', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('multi_dot(): expected out tensor"
        " to have dtype long int but got double'); tensorviz accepts [chain_matmul#0 int64 "
        'contig]',
        ('float32/contig', 'int64/contig',)),
    ('linalg.multi_dot', 'function'): (
        'PyTorch refuses with NotImplementedError(\'"addmm_impl_cpu_" not implemented for '
        "\\'Bool\\''); tensorviz accepts [linalg.multi_dot#0 bool contig]",
        ('bool/contig',)),
    ('tensordot', 'function'): (
        'message differs: tensorviz \'"tensordot" not implemented for \\\'Bool\\\'\' vs PyTorch '
        '\'"addmm_impl_cpu_" not implemented for \\\'Bool\\\'\' [tensordot#0 bool contig]',
        ('bool/contig', 'float64/0d', 'float64/empty',)),
    ('cross', 'function'): (
        "message differs: tensorviz 'Dimension out of range (expected to be in range of [-1, "
        "0], but got 1)' vs PyTorch 'Dimension specified as 1 but tensor has no dimensions' "
        '[cross#0 float64 0d]',
        ('float64/0d',)),
    ('cross', 'method'): (
        "message differs: tensorviz 'Dimension out of range (expected to be in range of [-1, "
        "0], but got 1)' vs PyTorch 'Dimension specified as 1 but tensor has no dimensions' "
        '[cross#0 float64 0d]',
        ('float64/0d',)),
    ('linalg.cross', 'function'): (
        "message differs: tensorviz 'tuple index out of range' vs PyTorch 'Dimension "
        "specified as -1 but tensor has no dimensions' [linalg.cross#0 float64 0d]",
        ('float64/0d',)),
    ('det', 'out'): (
        'PyTorch refuses with TypeError("det() got an unexpected keyword argument \'out\'"); '
        'tensorviz accepts [det#0 float32 contig]; out= (cast out): tensorviz raises '
        "RuntimeError('Expected out tensor to have dtype float, but got double instead') "
        'where PyTorch raises TypeError("det() got an unexpected keyword argument \'out\'") '
        '[det#0 float32 contig]',
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('logdet', 'function'): (
        "message differs: tensorviz 'linalg.slogdet: Expected a floating point or complex "
        "tensor as input. Got Bool' vs PyTorch 'logdet: Expected a floating point or complex "
        "tensor as input. Got Bool' [logdet#0 bool contig]",
        (
          'bfloat16/contig', 'bool/contig', 'float16/contig', 'float64/0d', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('logdet', 'method'): (
        "message differs: tensorviz 'linalg.slogdet: Expected a floating point or complex "
        "tensor as input. Got Bool' vs PyTorch 'logdet: Expected a floating point or complex "
        "tensor as input. Got Bool' [logdet#0 bool contig]",
        (
          'bfloat16/contig', 'bool/contig', 'float16/contig', 'float64/0d', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('slogdet', 'out'): (
        'tensorviz refuses with TypeError("_slogdet_legacy() got an unexpected keyword '
        'argument \'out\'"); PyTorch accepts [slogdet#0 float32 contig]',
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('matrix_exp', 'function'): (
        'tensorviz refuses with NotImplementedError(\'"matrix_exp" not implemented for '
        "\\'Half\\''); PyTorch accepts [matrix_exp#0 float16 contig]; PyTorch refuses with "
        'RuntimeError("view size is not compatible with input tensor\'s size and stride (at '
        'least one dimen...; tensorviz accepts [matrix_exp#1 float64 expand]',
        ('bfloat16/contig', 'float16/contig', 'float64/expand',)),
    ('matrix_exp', 'method'): (
        'tensorviz refuses with NotImplementedError(\'"matrix_exp" not implemented for '
        "\\'Half\\''); PyTorch accepts [matrix_exp#0 float16 contig]; PyTorch refuses with "
        'RuntimeError("view size is not compatible with input tensor\'s size and stride (at '
        'least one dimen...; tensorviz accepts [matrix_exp#1 float64 expand]',
        ('bfloat16/contig', 'float16/contig', 'float64/expand',)),
    ('linalg.slogdet', 'out'): (
        "result: <class 'tensorviz.return_types.linalg_slogdet'> vs <class "
        "'torch.return_types.linalg_slogdet_out'> [linalg.slogdet#0 float32 contig]",
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.inv_ex', 'out'): (
        "result: <class 'tensorviz.return_types.linalg_inv_ex'> vs <class "
        "'torch.return_types.linalg_inv_ex_out'> [linalg.inv_ex#0 float32 contig]",
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.matrix_exp', 'function'): (
        'tensorviz refuses with NotImplementedError(\'"matrix_exp" not implemented for '
        "\\'Half\\''); PyTorch accepts [linalg.matrix_exp#0 float16 contig]; PyTorch refuses "
        'with RuntimeError("view size is not compatible with input tensor\'s size and stride '
        '(at least one dimen...; tensorviz accepts [linalg.matrix_exp#1 float64 expand]',
        ('bfloat16/contig', 'float16/contig', 'float64/expand',)),
    ('linalg.matrix_exp', 'out'): (
        'message differs: tensorviz "matrix_exp() got an unexpected keyword argument \'out\'" '
        'vs PyTorch "linalg_matrix_exp() got an unexpected keyword argument \'out\'" '
        '[linalg.matrix_exp#0 float16 contig]',
        (
          'bfloat16/contig', 'complex128/contig', 'complex64/contig', 'float16/contig',
          'float32/contig', 'float64/contig', 'float64/empty', 'float64/expand', 'float64/offset',
          'float64/step', 'float64/t',
        )),
    ('linalg.eigvals', 'out'): (
        'out= (cast out): message differs: tensorviz "result type ComplexFloat can\'t be cast '
        'to the desired output type Double" vs PyTorch \'torch.linalg.eigvals: Expected '
        'eigenvalues to be safely castable from ComplexFloat dtype, but go... '
        '[linalg.eigvals#0 float32 contig]',
        ('float32/contig',)),
    ('cholesky', 'function'): (
        "message differs: tensorviz 'linalg.cholesky: The input tensor A must have at least 2"
        " dimensions.' vs PyTorch 'cholesky: The input tensor A must have at least 2 "
        "dimensions.' [cholesky#0 float64 0d]",
        ('float64/0d',)),
    ('cholesky', 'method'): (
        "message differs: tensorviz 'linalg.cholesky: The input tensor A must have at least 2"
        " dimensions.' vs PyTorch 'cholesky: The input tensor A must have at least 2 "
        "dimensions.' [cholesky#0 float64 0d]",
        ('float64/0d',)),
    ('linalg.cholesky_ex', 'out'): (
        "result: <class 'tensorviz.return_types.linalg_cholesky_ex'> vs <class "
        "'torch.return_types.linalg_cholesky_ex_out'> [linalg.cholesky_ex#0 float32 contig]",
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.eigvalsh', 'function'): (
        "message differs: tensorviz 'linalg.eigvalsh: The input tensor A must have at least 2"
        " dimensions.' vs PyTorch 'linalg.eigh: The input tensor A must have at least 2 "
        "dimensions.' [linalg.eigvalsh#0 float64 0d]",
        ('float64/0d',)),
    ('linalg.eigh', 'out'): (
        "result: <class 'tensorviz.return_types.linalg_eigh'> vs <class "
        "'torch.return_types.linalg_eigh_out'> [linalg.eigh#0 float32 contig]",
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.eig', 'out'): (
        "result: <class 'tensorviz.return_types.linalg_eig'> vs <class "
        "'torch.return_types.linalg_eig_out'> [linalg.eig#0 float32 contig]",
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.solve', 'function'): (
        'result: strides (3, 1) != (1, 2) [linalg.solve#1 float64 expand]',
        ('float64/expand',)),
    ('linalg.solve_ex', 'function'): (
        'result[0]: strides (3, 1) != (1, 2) [linalg.solve_ex#1 float64 expand]',
        ('float64/expand',)),
    ('linalg.solve_ex', 'out'): (
        "result: <class 'tensorviz.return_types.linalg_solve_ex'> vs <class "
        "'torch.return_types.linalg_solve_ex_out'> [linalg.solve_ex#0 float32 contig]",
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.solve_triangular', 'function'): (
        'result: strides (3, 1) != (1, 2) [linalg.solve_triangular#1 float32 contig]',
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.solve_triangular', 'out'): (
        'out= (empty out): result: strides (3, 1) != (1, 2) [linalg.solve_triangular#1 '
        'float32 contig]',
        ('float32/contig',)),
    ('matrix_power', 'function'): (
        'PyTorch refuses with NotImplementedError(\'"addmm_impl_cpu_" not implemented for '
        "\\'Bool\\''); tensorviz accepts [matrix_power#0 bool contig]",
        ('bool/contig',)),
    ('matrix_power', 'method'): (
        'PyTorch refuses with NotImplementedError(\'"addmm_impl_cpu_" not implemented for '
        "\\'Bool\\''); tensorviz accepts [matrix_power#0 bool contig]",
        ('bool/contig',)),
    ('linalg.matrix_power', 'function'): (
        'PyTorch refuses with NotImplementedError(\'"addmm_impl_cpu_" not implemented for '
        "\\'Bool\\''); tensorviz accepts [linalg.matrix_power#0 bool contig]",
        ('bool/contig',)),
    ('linalg.lstsq', 'out'): (
        'tensorviz refuses with TypeError("lstsq() got an unexpected keyword argument '
        '\'out\'"); PyTorch accepts [linalg.lstsq#0 float32 contig]',
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.vector_norm', 'function'): (
        "PyTorch refuses with IndexError('Dimension out of range (expected to be in range of "
        "[-1, 0], but got 1)'); tensorviz accepts [linalg.vector_norm#1 float64 0d]",
        ('float64/0d',)),
    ('linalg.cond', 'function'): (
        "message differs: tensorviz 'linalg.matrix_norm: Expected a floating point or complex"
        " tensor as input. Got Bool' vs PyTorch 'linalg.inv: Expected a floating point or "
        "complex tensor as input. Got Bool' [linalg.cond#1 bool contig]",
        (
          'bool/contig', 'float64/0d', 'int16/contig', 'int32/contig', 'int64/contig',
          'int8/contig', 'uint8/contig',
        )),
    ('linalg.matrix_rank', 'function'): (
        "message differs: tensorviz 'linalg.matrix_rank: The input tensor A must have at "
        "least 2 dimensions.' vs PyTorch 'torch.linalg.matrix_rank: The input tensor input "
        "must have at least 2 dimensions.' [linalg.matrix_rank#0 float64 0d]",
        ('float64/0d',)),
    ('linalg.tensorinv', 'function'): (
        'result: strides (8, 4, 1) != (2, 1, 4) [linalg.tensorinv#0 float32 contig]',
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/offset', 'float64/step', 'float64/t',
        )),
    ('qr', 'out'): (
        "result: <class 'tensorviz.return_types.qr'> vs <class 'torch.return_types.qr_out'> "
        '[qr#0 float32 contig]',
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.qr', 'out'): (
        "result: <class 'tensorviz.return_types.linalg_qr'> vs <class "
        "'torch.return_types.linalg_qr_out'> [linalg.qr#0 float32 contig]",
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('svd', 'function'): (
        "message differs: tensorviz 'linalg.svd: The input tensor A must have at least 2 "
        "dimensions.' vs PyTorch 'linalg.svd: input should have at least 2 dimensions, but "
        "has 0 dimensions instead' [svd#0 float64 0d]",
        ('float64/0d',)),
    ('svd', 'method'): (
        "message differs: tensorviz 'linalg.svd: The input tensor A must have at least 2 "
        "dimensions.' vs PyTorch 'linalg.svd: input should have at least 2 dimensions, but "
        "has 0 dimensions instead' [svd#0 float64 0d]",
        ('float64/0d',)),
    ('svd', 'out'): (
        "result: <class 'tensorviz.return_types.svd'> vs <class 'torch.return_types.svd_out'>"
        ' [svd#0 float32 contig]',
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('linalg.svd', 'out'): (
        "result: <class 'tensorviz.return_types.linalg_svd'> vs <class "
        "'torch.return_types.linalg_svd_out'> [linalg.svd#0 float32 contig]",
        (
          'complex128/contig', 'complex64/contig', 'float32/contig', 'float64/contig',
          'float64/empty', 'float64/expand', 'float64/offset', 'float64/step', 'float64/t',
        )),
    ('fft.ifft', 'out'): (
        'out= (empty out): result: strides (4, 1) != (1, 3) [fft.ifft#2 int64 contig]',
        ('float32/contig', 'int64/contig',)),
    ('fft.ihfft', 'out'): (
        'out= (empty out): result: strides (4, 1) != (1, 2) [fft.ihfft#2 int64 contig]',
        ('float32/contig', 'int64/contig',)),
    ('fft.fft2', 'function'): (
        'result: strides (16, 1, 4) != (16, 4, 1) [fft.fft2#1 float32 t]; message differs: '
        "tensorviz 'Dimension out of range (expected to be in range of [-1, 0], but got -2)' "
        "vs PyTorch 'Dimension specified as -2 but tensor has no dimensions' [fft.fft2#0 "
        'float32 0d]',
        ('float32/0d', 'float32/expand', 'float32/t',)),
    ('fft.ifft2', 'function'): (
        'result: strides (16, 1, 4) != (16, 4, 1) [fft.ifft2#1 float32 t]; message differs: '
        "tensorviz 'Dimension out of range (expected to be in range of [-1, 0], but got -2)' "
        "vs PyTorch 'Dimension specified as -2 but tensor has no dimensions' [fft.ifft2#0 "
        'float32 0d]',
        ('float32/0d', 'float32/expand', 'float32/t',)),
    ('fft.ifft2', 'out'): (
        "out= (cast out): message differs: tensorviz 'ifftn expects a complex output tensor, "
        "but got Double' vs PyTorch 'fftn expects a complex output tensor, but got Double' "
        '[fft.ifft2#0 int64 contig]',
        ('float32/contig', 'int64/contig',)),
    ('fft.rfft2', 'function'): (
        "message differs: tensorviz 'rfft2 expects a real input tensor, but got ComplexFloat'"
        " vs PyTorch 'rfftn expects a real-valued input tensor, but got ComplexFloat' "
        '[fft.rfft2#0 complex64 contig]; result: strides (1, 3) != (3, 1) [fft.rfft2#0 '
        'float32 t]',
        ('complex128/contig', 'complex64/contig', 'float32/0d', 'float32/expand', 'float32/t',)),
    ('fft.irfft2', 'function'): (
        'result: strides (1, 3) != (6, 1) [fft.irfft2#0 float32 t]; message differs: '
        "tensorviz 'Dimension out of range (expected to be in range of [-1, 0], but got -2)' "
        "vs PyTorch 'Dimension specified as -2 but tensor has no dimensions' [fft.irfft2#0 "
        'float32 0d]',
        ('float32/0d', 'float32/expand', 'float32/t',)),
    ('fft.fftn', 'function'): (
        'result: strides (16, 1, 4) != (16, 4, 1) [fft.fftn#1 float32 t]',
        ('float32/expand', 'float32/t',)),
    ('fft.ifftn', 'function'): (
        'result: strides (16, 1, 4) != (16, 4, 1) [fft.ifftn#1 float32 t]',
        ('float32/expand', 'float32/t',)),
    ('fft.ifftn', 'out'): (
        "out= (cast out): message differs: tensorviz 'ifftn expects a complex output tensor, "
        "but got Double' vs PyTorch 'fftn expects a complex output tensor, but got Double' "
        '[fft.ifftn#0 int64 contig]',
        ('float32/contig', 'int64/contig',)),
    ('fft.rfftn', 'function'): (
        "message differs: tensorviz 'rfftn expects a real input tensor, but got ComplexFloat'"
        " vs PyTorch 'rfftn expects a real-valued input tensor, but got ComplexFloat' "
        '[fft.rfftn#0 complex64 contig]; result: strides (1, 3) != (3, 1) [fft.rfftn#0 '
        "float32 t]; PyTorch refuses with RuntimeError('rfftn must transform at least one "
        "axis'); tensorviz accepts [fft.rfftn#0 float32 0d]",
        ('complex128/contig', 'complex64/contig', 'float32/0d', 'float32/expand', 'float32/t',)),
    ('fft.irfftn', 'function'): (
        'result: strides (1, 3) != (6, 1) [fft.irfftn#0 float32 t]; PyTorch refuses with '
        "RuntimeError('irfftn must transform at least one axis'); tensorviz accepts "
        '[fft.irfftn#0 float32 0d]',
        ('float32/0d', 'float32/expand', 'float32/t',)),
    ('fft.fftshift', 'function'): (
        "PyTorch refuses with RuntimeError('`shifts` required'); tensorviz accepts "
        "[fft.fftshift#0 float32 0d]; message differs: tensorviz 'Dimension out of range "
        "(expected to be in range of [-1, 0], but got 1)' vs PyTorch 'Dimension specified as "
        "1 but tensor has no dimensions' [fft.fftshift#1 float32 0d]",
        ('float32/0d',)),
    ('fft.fftshift', 'out'): (
        'message differs: tensorviz "fftshift() got an unexpected keyword argument \'out\'" vs '
        'PyTorch "fft_fftshift() got an unexpected keyword argument \'out\'" [fft.fftshift#0 '
        'bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('fft.ifftshift', 'function'): (
        "PyTorch refuses with RuntimeError('`shifts` required'); tensorviz accepts "
        "[fft.ifftshift#0 float32 0d]; message differs: tensorviz 'Dimension out of range "
        "(expected to be in range of [-1, 0], but got 1)' vs PyTorch 'Dimension specified as "
        "1 but tensor has no dimensions' [fft.ifftshift#1 float32 0d]",
        ('float32/0d',)),
    ('fft.ifftshift', 'out'): (
        'message differs: tensorviz "ifftshift() got an unexpected keyword argument \'out\'" vs'
        ' PyTorch "fft_ifftshift() got an unexpected keyword argument \'out\'" [fft.ifftshift#0'
        ' bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('fft.fftfreq', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Float does not match dtype"
        " of out parameter (Double)'); tensorviz accepts [fft.fftfreq#1 float32 contig]",
        ('float32/contig',)),
    ('fft.rfftfreq', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Float does not match dtype"
        " of out parameter (Double)'); tensorviz accepts [fft.rfftfreq#1 float32 contig]",
        ('float32/contig',)),
    ('istft', 'function'): (
        "message differs: tensorviz 'istft requires a complex-valued input tensor.' vs "
        "PyTorch 'istft requires a complex-valued input tensor matching the output from stft "
        'with return_complex=T... [istft#0 float32 contig]',
        ('float32/contig',)),
    ('istft', 'method'): (
        "message differs: tensorviz 'istft requires a complex-valued input tensor.' vs "
        "PyTorch 'istft requires a complex-valued input tensor matching the output from stft "
        'with return_complex=T... [istft#0 float32 contig]',
        ('float32/contig',)),
    ('zeros', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Long does not match dtype "
        "of out parameter (Double)'); tensorviz accepts [zeros#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('ones', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Long does not match dtype "
        "of out parameter (Double)'); tensorviz accepts [ones#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('empty', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Long does not match dtype "
        "of out parameter (Double)'); tensorviz accepts [empty#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('full', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Long does not match dtype "
        "of out parameter (Double)'); tensorviz accepts [full#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('arange', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Long does not match dtype "
        "of out parameter (Double)'); tensorviz accepts [arange#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('range', 'out'): (
        'tensorviz refuses with TypeError("range() got an unexpected keyword argument '
        '\'out\'"); PyTorch accepts [range#2 bool contig]; out= (cast out): tensorviz raises '
        'TypeError("range() got an unexpected keyword argument \'out\'") where PyTorch raises '
        "RuntimeError('dtype Long does not match dtype of out parameter (Double)') [range#1 "
        'int64 contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('linspace', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Long does not match dtype "
        "of out parameter (Double)'); tensorviz accepts [linspace#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('logspace', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Long does not match dtype "
        "of out parameter (Double)'); tensorviz accepts [logspace#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('eye', 'out'): (
        "out= (cast out): PyTorch refuses with RuntimeError('dtype Long does not match dtype "
        "of out parameter (Double)'); tensorviz accepts [eye#0 int64 contig]",
        ('float32/contig', 'int64/contig',)),
    ('from_numpy', 'function'): (
        'PyTorch refuses with TypeError("can\'t convert np.ndarray of type ml_dtypes.bfloat16.'
        ' The only supported types are: flo...; tensorviz accepts [from_numpy#0 bfloat16 '
        'contig]',
        ('bfloat16/contig',)),
    ('from_numpy', 'out'): (
        'message differs: tensorviz "from_numpy() got an unexpected keyword argument \'out\'" '
        "vs PyTorch 'torch._VariableFunctionsClass.from_numpy() takes no keyword arguments' "
        '[from_numpy#0 bool contig]',
        (
          'bool/contig', 'complex128/contig', 'complex64/contig', 'float16/contig',
          'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig', 'int64/contig',
          'int8/contig', 'uint8/contig',
        )),
    ('hann_window', 'function'): (
        "message differs: tensorviz 'hann_window expects floating point dtypes, got: Bool' vs"
        " PyTorch 'hann_window expects floating point dtypes, got: TensorOptions(dtype=bool, "
        'device=cpu, layout=Str... [hann_window#1 bool contig]',
        (
          'bool/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('hann_window', 'out'): (
        'message differs: tensorviz "hann_window() got an unexpected keyword argument \'out\'" '
        "vs PyTorch 'hann_window() received an invalid combination of arguments - got (int, "
        'out=Tensor), but expected... [hann_window#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('hamming_window', 'function'): (
        "message differs: tensorviz 'hamming_window expects floating point dtypes, got: Bool'"
        " vs PyTorch 'hamming_window expects floating point dtypes, got: "
        'TensorOptions(dtype=bool, device=cpu, layout=... [hamming_window#1 bool contig]',
        (
          'bool/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('hamming_window', 'out'): (
        'message differs: tensorviz "hamming_window() got an unexpected keyword argument '
        '\'out\'" vs PyTorch \'hamming_window() received an invalid combination of arguments - '
        'got (int, out=Tensor), but expec... [hamming_window#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('blackman_window', 'function'): (
        "message differs: tensorviz 'blackman_window expects floating point dtypes, got: "
        "Bool' vs PyTorch 'blackman_window expects floating point dtypes, got: "
        'TensorOptions(dtype=bool, device=cpu, layout... [blackman_window#1 bool contig]',
        (
          'bool/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('blackman_window', 'out'): (
        'message differs: tensorviz "blackman_window() got an unexpected keyword argument '
        '\'out\'" vs PyTorch \'blackman_window() received an invalid combination of arguments - '
        'got (int, out=Tensor), but expe... [blackman_window#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('bartlett_window', 'function'): (
        "message differs: tensorviz 'bartlett_window expects floating point dtypes, got: "
        "Bool' vs PyTorch 'bartlett_window expects floating point dtypes, got: "
        'TensorOptions(dtype=bool, device=cpu, layout... [bartlett_window#1 bool contig]',
        (
          'bool/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('bartlett_window', 'out'): (
        'message differs: tensorviz "bartlett_window() got an unexpected keyword argument '
        '\'out\'" vs PyTorch \'bartlett_window() received an invalid combination of arguments - '
        'got (int, out=Tensor), but expe... [bartlett_window#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('kaiser_window', 'function'): (
        "message differs: tensorviz 'kaiser_window expects floating point dtypes, got: Bool' "
        "vs PyTorch 'kaiser_window expects floating point dtypes, got: "
        'TensorOptions(dtype=bool, device=cpu, layout=S... [kaiser_window#1 bool contig]',
        (
          'bool/contig', 'int16/contig', 'int32/contig', 'int64/contig', 'int8/contig',
          'uint8/contig',
        )),
    ('kaiser_window', 'out'): (
        'message differs: tensorviz "kaiser_window() got an unexpected keyword argument '
        '\'out\'" vs PyTorch \'kaiser_window() received an invalid combination of arguments - '
        'got (int, out=Tensor), but expect... [kaiser_window#0 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('rand_like', 'function'): (
        "tensorviz refuses with TypeError('rand() missing 1 required positional arguments: "
        '"size"\'); PyTorch accepts [rand_like#0 float32 0d]',
        ('float32/0d',)),
    ('randn_like', 'function'): (
        "tensorviz refuses with TypeError('randn() missing 1 required positional arguments: "
        '"size"\'); PyTorch accepts [randn_like#0 float32 0d]',
        ('float32/0d',)),
    ('normal', 'inplace'): (
        'tensorviz raises NotImplementedError(\'"normal_kernel_cpu" not implemented for '
        '\\\'Bool\\\'\') where PyTorch raises TypeError("normal_(): argument \'mean\' (position 1) '
        'must be float, not Tensor") [normal#0 bool contig]; PyTorch refuses with '
        'TypeError("normal_(): argument \'mean\' (position 1) must be float, not Tensor"); '
        'tensorviz accepts [normal#0 float16 contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/contig', 'float32/empty', 'float32/expand', 'float32/offset',
          'float32/step', 'float32/t', 'float64/contig', 'int16/contig', 'int32/contig',
          'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('multinomial', 'function'): (
        "tensorviz raises ValueError('cannot reshape array of size 0 into shape (0)') where "
        "PyTorch raises RuntimeError('invalid multinomial distribution (sum of probabilities "
        "<= 0)') [multinomial#1 float32 empty]",
        ('float32/empty',)),
    ('multinomial', 'method'): (
        "tensorviz raises ValueError('cannot reshape array of size 0 into shape (0)') where "
        "PyTorch raises RuntimeError('invalid multinomial distribution (sum of probabilities "
        "<= 0)') [multinomial#1 float32 empty]",
        ('float32/empty',)),
    ('poisson', 'function'): (
        'tensorviz refuses with AttributeError("\'int\' object has no attribute \'astype\'"); '
        'PyTorch accepts [poisson#0 float32 0d]',
        ('float32/0d',)),
    ('new', 'method'): (
        'message differs: tensorviz "new() got an unexpected keyword argument \'dtype\'" vs '
        'PyTorch "new() received an invalid combination of arguments - got (int, '
        'dtype=torch.dtype), but expected ... [new#1 bool contig]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
    ('sum_to_size', 'method'): (
        'tensorviz refuses with AttributeError("\'Tensor\' object has no attribute '
        '\'sum_to_size\'"); PyTorch accepts [sum_to_size#0 bool contig]; tensorviz raises '
        'AttributeError("\'Tensor\' object has no attribute \'sum_to_size\'") where PyTorch '
        "raises RuntimeError('size {[1, 4]} is not expandable to size {[]}.') [sum_to_size#0 "
        'float32 0d]',
        (
          'bfloat16/contig', 'bool/contig', 'complex128/contig', 'complex64/contig',
          'float16/contig', 'float32/0d', 'float32/contig', 'float32/empty', 'float32/expand',
          'float32/offset', 'float32/step', 'float32/t', 'float64/contig', 'int16/contig',
          'int32/contig', 'int64/contig', 'int8/contig', 'uint8/contig',
        )),
}
