"""Every layer against PyTorch: the same weights (copied through state_dict), the same inputs in
float64 and float32, batched and unbatched, with the layers' options; outputs, input gradients,
parameter gradients and the output's grad_fn name compared."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from nn_harness import assert_close, run_both, twin_modules

torch = pytest.importorskip("torch")


class S:
    """A seeded standard-normal input of ``shape`` (drawn per test, so each case is its own)."""

    def __init__(self, *shape, scale=1.0):
        self.shape, self.scale = shape, scale

    def make(self, rng, dtype):
        return (rng.standard_normal(self.shape) * self.scale).astype(dtype)


class I:
    """Seeded integer indices in ``[lo, hi)`` of ``shape``."""

    def __init__(self, lo, hi, shape):
        self.lo, self.hi, self.shape = lo, hi, shape

    def make(self, rng, dtype):
        return rng.integers(self.lo, self.hi, self.shape)


class A:
    """Fixed integer data."""

    def __init__(self, data):
        self.data = data

    def make(self, rng, dtype):
        return np.array(self.data)


cases = [
 ("Linear", (5, 3), {}, [S(4, 5)]),
 ("Linear", (5, 3), {"bias": False}, [S(5)]),
 ("Bilinear", (3, 4, 2), {}, [S(5, 3), S(5, 4)]),
 ("Identity", (), {}, [S(3)]),
 ("Flatten", (), {}, [S(2, 3, 4)]),
 ("Unflatten", (1, (2, 3)), {}, [S(4, 6)]),
 ("ReLU", (), {}, [S(4, 5)]), ("ReLU6", (), {}, [S(4, 5, scale=4)]), ("LeakyReLU", (0.2,), {}, [S(4, 5)]),
 ("PReLU", (), {}, [S(4, 5)]), ("PReLU", (3,), {}, [S(4, 3, 5)]), ("ELU", (), {}, [S(4,5)]), ("SELU", (), {}, [S(4,5)]), ("CELU", (0.5,), {}, [S(4,5)]),
 ("GELU", (), {}, [S(4,5)]), ("GELU", (), {"approximate": "tanh"}, [S(4,5)]), ("SiLU", (), {}, [S(4,5)]),
 ("Mish", (), {}, [S(4,5)]), ("Sigmoid", (), {}, [S(4,5)]), ("Tanh", (), {}, [S(4,5)]),
 ("Softplus", (), {}, [S(4,5)]), ("Softplus", (2, 1), {}, [S(4,5)]), ("Softmax", (1,), {}, [S(4,5)]), ("LogSoftmax", (1,), {}, [S(4,5)]), ("Softmin", (0,), {}, [S(4,5)]),
 ("Hardtanh", (-0.5, 0.7), {}, [S(4,5)]), ("Hardsigmoid", (), {}, [S(4, 5, scale=3)]), ("Hardswish", (), {}, [S(4, 5, scale=3)]),
 ("LogSigmoid", (), {}, [S(4,5)]), ("Softsign", (), {}, [S(4,5)]), ("Tanhshrink", (), {}, [S(4,5)]), ("Softshrink", (0.5,), {}, [S(4,5)]), ("Hardshrink", (0.5,), {}, [S(4,5)]),
 ("Threshold", (0.1, 20.0), {}, [S(4,5)]), ("GLU", (), {}, [S(4,6)]),
 ("BatchNorm1d", (3,), {}, [S(4, 3)]), ("BatchNorm1d", (3,), {}, [S(4, 3, 5)]), ("BatchNorm2d", (3,), {}, [S(2, 3, 4, 4)]),
 ("BatchNorm2d", (3,), {"affine": False}, [S(2, 3, 4, 4)]), ("BatchNorm2d", (3,), {"track_running_stats": False}, [S(2, 3, 4, 4)]),
 ("LayerNorm", (5,), {}, [S(4, 5)]), ("LayerNorm", ((3, 5),), {}, [S(2, 3, 5)]), ("LayerNorm", (5,), {"bias": False}, [S(4, 5)]),
 ("GroupNorm", (2, 4), {}, [S(3, 4, 5)]), ("InstanceNorm2d", (3,), {}, [S(2, 3, 4, 4)]), ("InstanceNorm2d", (3,), {"affine": True}, [S(2, 3, 4, 4)]),
 ("InstanceNorm1d", (3,), {}, [S(3, 5)]),
 ("InstanceNorm1d", (3,), {"affine": True, "track_running_stats": True}, [S(2, 3, 5)]), ("RMSNorm", (5,), {}, [S(4, 5)]), ("LocalResponseNorm", (2,), {}, [S(2, 4, 3, 3)]),
 ("Conv1d", (2, 4, 3), {}, [S(2, 2, 9)]), ("Conv1d", (2, 4, 3), {"stride": 2, "padding": 1}, [S(2, 9)]),
 ("Conv1d", (4, 4, 3), {"padding": "same", "dilation": 2, "groups": 2}, [S(2, 4, 9)]),
 ("Conv2d", (2, 4, 3), {}, [S(2, 2, 7, 7)]), ("Conv2d", (2, 4, (3, 2)), {"stride": (2, 1), "padding": (1, 2)}, [S(2, 2, 7, 6)]),
 ("Conv2d", (4, 6, 3), {"groups": 2, "dilation": 2, "padding": "same"}, [S(2, 4, 8, 8)]),
 ("Conv2d", (2, 3, 4), {"padding": "same"}, [S(2, 2, 7, 7)]),
 ("Conv2d", (2, 3, 3), {"padding": 1, "padding_mode": "reflect"}, [S(2, 2, 5, 5)]),
 ("Conv2d", (2, 3, 3), {"padding": 2, "padding_mode": "circular"}, [S(2, 5, 5)]),
 ("Conv2d", (2, 3, 3), {"padding": 1, "padding_mode": "replicate", "bias": False}, [S(2, 2, 5, 5)]),
 ("Conv3d", (2, 3, 2), {}, [S(1, 2, 4, 4, 4)]),
 ("ConvTranspose1d", (2, 3, 3), {"stride": 2}, [S(2, 2, 5)]),
 ("ConvTranspose2d", (2, 3, 3), {}, [S(2, 2, 4, 4)]),
 ("ConvTranspose2d", (4, 6, 3), {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2, "dilation": 1}, [S(2, 4, 4, 4)]),
 ("ConvTranspose2d", (2, 3, 3), {"stride": 2, "dilation": 2}, [S(2, 4, 4)]),
 ("MaxPool1d", (2,), {}, [S(2, 3, 8)]), ("MaxPool1d", (3,), {"stride": 2, "padding": 1, "ceil_mode": True}, [S(2, 3, 8)]),
 ("MaxPool2d", (2,), {}, [S(2, 3, 6, 6)]), ("MaxPool2d", (3,), {"stride": 2, "padding": 1, "dilation": 1, "ceil_mode": True}, [S(2, 3, 7, 7)]),
 ("MaxPool2d", (2,), {"return_indices": True}, [S(3, 6, 6)]), ("MaxPool2d", (2,), {"dilation": 2}, [S(1, 2, 7, 7)]),
 ("AvgPool1d", (3,), {"stride": 2, "padding": 1}, [S(2, 3, 8)]), ("AvgPool2d", (2,), {}, [S(2, 3, 6, 6)]),
 ("AvgPool2d", (3,), {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False}, [S(2, 3, 7, 7)]),
 ("AvgPool2d", (3,), {"stride": 2, "padding": 1, "ceil_mode": True}, [S(2, 3, 8, 8)]),
 ("AvgPool2d", (2,), {"divisor_override": 3}, [S(2, 3, 6, 6)]),
 ("AdaptiveAvgPool2d", ((2, 3),), {}, [S(2, 3, 7, 8)]), ("AdaptiveAvgPool2d", (1,), {}, [S(2, 3, 7, 8)]), ("AdaptiveAvgPool1d", (3,), {}, [S(2, 3, 7)]),
 ("AdaptiveMaxPool2d", ((2, 3),), {}, [S(2, 3, 7, 8)]), ("AdaptiveMaxPool1d", (3,), {"return_indices": True}, [S(2, 3, 7)]),
 ("LPPool2d", (2, 2), {}, [S(1, 2, 4, 4)]),
 ("Upsample", (), {"scale_factor": 2}, [S(1, 2, 3, 3)]), ("Upsample", (), {"scale_factor": 2, "mode": "bilinear"}, [S(1, 2, 3, 3)]),
 ("Upsample", (), {"size": (5, 7), "mode": "bilinear", "align_corners": True}, [S(1, 2, 3, 3)]),
 ("Upsample", (), {"size": 5}, [S(1, 2, 3)]), ("Upsample", (), {"scale_factor": 1.5, "mode": "bilinear"}, [S(1, 2, 4, 4)]),
 ("PixelShuffle", (2,), {}, [S(1, 8, 2, 3)]), ("PixelUnshuffle", (2,), {}, [S(1, 2, 4, 6)]),
 ("Unfold", (2,), {"padding": 1, "stride": 2}, [S(2, 3, 5, 5)]), ("Fold", ((4, 5), 2), {}, [S(2, 12, 12)]),
 ("ZeroPad2d", (1,), {}, [S(1, 2, 3, 3)]), ("ConstantPad1d", ((1, 2), 3.5), {}, [S(2, 3, 4)]),
 ("ReflectionPad2d", ((1, 2, 0, 1),), {}, [S(1, 2, 3, 4)]), ("ReplicationPad1d", (2,), {}, [S(1, 2, 3)]), ("ReflectionPad1d", (2,), {}, [S(1, 2, 4)]), ("ReplicationPad2d", (1,), {}, [S(2, 3, 4)]),
 ("CosineSimilarity", (), {}, [S(4, 5), S(4, 5)]), ("PairwiseDistance", (), {}, [S(4, 5), S(4, 5)]),
 ("Embedding", (10, 3), {}, [I(0, 10, (4, 2))]), ("Embedding", (10, 3), {"padding_idx": 0}, [A([[0, 1], [2, 0]])]),
 ("EmbeddingBag", (10, 3), {}, [I(0, 10, (4, 3))]), ("EmbeddingBag", (10, 3), {"mode": "sum"}, [I(0, 10, (4, 3))]),
 ("EmbeddingBag", (10, 3), {"mode": "max"}, [I(0, 10, (4, 3))]),
 ("EmbeddingBag", (10, 3), {}, [I(0, 10, (7,)), A([0, 2, 5])]),
 ("RNN", (3, 4), {}, [S(5, 2, 3)]), ("RNN", (3, 4), {"nonlinearity": "relu", "batch_first": True, "num_layers": 2, "bidirectional": True}, [S(2, 5, 3)]),
 ("RNN", (3, 4), {}, [S(5, 3)]), ("RNN", (3, 4), {"num_layers": 2}, [S(5, 2, 3), S(2, 2, 4)]),
 ("LSTM", (3, 4), {}, [S(5, 2, 3)]), ("LSTM", (3, 4), {"batch_first": True, "num_layers": 2, "bidirectional": True}, [S(2, 5, 3)]),
 ("LSTM", (3, 4), {"proj_size": 2}, [S(5, 2, 3)]), ("LSTM", (3, 4), {"proj_size": 2, "num_layers": 2, "bidirectional": True}, [S(5, 3)]), ("LSTM", (3, 4), {"bias": False}, [S(5, 3)]),
 ("GRU", (3, 4), {}, [S(5, 2, 3)]), ("GRU", (3, 4), {"batch_first": True, "num_layers": 2, "bidirectional": True}, [S(2, 5, 3)]),
 ("RNNCell", (3, 4), {}, [S(2, 3)]), ("RNNCell", (3, 4), {"nonlinearity": "relu"}, [S(3), S(4)]), ("LSTMCell", (3, 4), {}, [S(3)]), ("LSTMCell", (3, 4), {}, [S(2, 3)]), ("GRUCell", (3, 4), {}, [S(2, 3), S(2, 4)]), ("GRUCell", (3, 4), {}, [S(3)]),
 ("MultiheadAttention", (8, 2), {}, [S(5, 2, 8), S(6, 2, 8), S(6, 2, 8)]),
 ("MultiheadAttention", (8, 2), {"batch_first": True}, [S(2, 5, 8), S(2, 5, 8), S(2, 5, 8)]),
 ("MultiheadAttention", (8, 2), {"kdim": 4, "vdim": 6}, [S(5, 2, 8), S(6, 2, 4), S(6, 2, 6)]),
 ("MultiheadAttention", (8, 2), {"bias": False, "add_bias_kv": True, "add_zero_attn": True}, [S(5, 2, 8), S(6, 2, 8), S(6, 2, 8)]),
 ("MultiheadAttention", (8, 2), {}, [S(5, 8), S(6, 8), S(6, 8)]),
 ("Dropout", (0.0,), {}, [S(4, 5)]),
 ("TransformerEncoderLayer", (8, 2), {"dim_feedforward": 16, "dropout": 0.0}, [S(5, 2, 8)]),
 ("TransformerEncoderLayer", (8, 2), {"dim_feedforward": 16, "dropout": 0.0, "batch_first": True, "norm_first": True, "activation": "gelu"}, [S(2, 5, 8)]),
]

# Layers whose output node may differ from PyTorch's (values and gradients agree): none.
COMPOSED: frozenset = frozenset()


def _id(case):
    name, args, kw, _ = case
    extra = ",".join(f"{k}={v}" for k, v in kw.items())
    return f"{name}{args}{extra}".replace(" ", "")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", cases, ids=[_id(c) for c in cases])
@pytest.mark.parametrize("seed", [0, 1])
def test_layer_matches_torch(case, dtype, seed):
    name, args, kw, specs = case
    rng = np.random.default_rng(seed)
    inputs = [s.make(rng, dtype) for s in specs]
    with warnings.catch_warnings():
        # PyTorch's own UserWarnings (e.g. about nested tensors) are not what this test checks
        warnings.simplefilter("ignore")
        pt, tv = twin_modules(name, *args, dtype=dtype, **kw)
        run_both(pt, tv, inputs, dtype=dtype, check_grad_fn=_id(case) not in COMPOSED,
                 seed=seed)
    # buffers moved by the forward (BatchNorm/InstanceNorm running statistics) agree too
    tsd = tv.state_dict()
    for k, v in pt.state_dict().items():
        assert_close(tsd[k], v, dtype, k)
