"""``tensorviz.nn.functional``: layers and losses as functions, PyTorch's names and rules.

Most are written with tensorviz's own tensor ops (so autograd differentiates them as it
does any composite); those PyTorch records as one node of their own (``MseLossBackward0``,
``NllLossBackward0``, ``ConvolutionBackward0``, ``NativeBatchNormBackward0``,
``EmbeddingBackward0``, the activations) are ops with a derivative formula, declared in
``nn/_formulas.py``.

Convolution and pooling read the input through a strided window view (``as_strided``: no
copy) -- the storage slots a kernel position reads are exactly that view's -- then one
matrix product::

    cols = x_padded.as_strided((N, C, OH, OW, kh, kw), ...)     # a view of x's storage
    out  = weight.reshape(O, C*kh*kw) @ cols.reshape(N, C*kh*kw, OH*OW)
"""
from __future__ import annotations

import builtins
import math
import warnings
from typing import Sequence

import tensorviz as tv

from .. import _dispatch, _dtypes
from .._grad_mode import _STATE
from .._tensor import Tensor
from . import _fast

__all__ = [
    "linear", "bilinear", "relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "prelu",
    "rrelu", "elu", "elu_", "selu", "celu", "gelu", "silu", "mish", "sigmoid", "tanh",
    "hardsigmoid", "hardswish", "hardtanh", "hardtanh_", "softplus", "softsign", "logsigmoid",
    "tanhshrink", "softshrink", "hardshrink", "threshold", "glu", "softmax", "log_softmax",
    "softmin", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
    "feature_alpha_dropout", "batch_norm", "layer_norm", "group_norm", "instance_norm",
    "rms_norm", "local_response_norm", "embedding", "embedding_bag", "one_hot", "pad", "conv1d",
    "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d",
    "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
    "adaptive_max_pool1d", "adaptive_max_pool2d", "lp_pool2d", "interpolate", "upsample",
    "unfold", "fold", "normalize", "cosine_similarity", "pairwise_distance", "pdist",
    "pixel_shuffle", "pixel_unshuffle", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
    "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "kl_div", "cosine_embedding_loss", "margin_ranking_loss", "hinge_embedding_loss",
    "soft_margin_loss", "poisson_nll_loss", "gaussian_nll_loss", "triplet_margin_loss",
    "multi_margin_loss", "multilabel_soft_margin_loss", "scaled_dot_product_attention",
    "multi_head_attention_forward",
]

_F = "nn.functional"


def _tensor_arg(fn: str, name: str, x) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")


def _tuple(v, n: int, name: str = "") -> tuple:
    if isinstance(v, (list, tuple)):
        if len(v) == 1:
            return tuple(v) * n
        return tuple(int(x) for x in v)
    return (int(v),) * n


# ---------------------------------------------------------------- linear
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias`` (weight is ``(out_features, in_features)``).

    A 2-D input with a bias is one ``addmm`` (PyTorch's ``AddmmBackward0``); other ranks
    are folded into rows and viewed back.

    >>> F.linear(tensorviz.ones(2, 3), tensorviz.ones(4, 3)).shape
    tensorviz.Size([2, 4])
    """
    out = _fast.linear(input, weight, bias)  # (2-D CPU float32/64: the same nodes, directly)
    if out is not None:
        return out
    _tensor_arg("linear", "input", input)
    if input.dtype != weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{input.dtype.cname} and {weight.dtype.cname}")
    if input.dim() == 2:
        if bias is not None:
            return tv.addmm(bias, input, weight.t())
        return input.mm(weight.t())
    if input.dim() == 1:  # (PyTorch: mm of the row, squeezed in place: SqueezeBackward4)
        if bias is None:
            return input.unsqueeze(0).mm(weight.t()).squeeze_(0)
        out = tv.addmm(bias, input.view(1, -1), weight.t())
        return out.view(out.shape[1:])
    if input.dim() == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are 0D "
                           f"and {weight.dim()}D")
    folded = input.reshape(-1, input.shape[-1])
    out = folded.mm(weight.t()) if bias is None else tv.addmm(bias, folded, weight.t())
    return out.view(*input.shape[:-1], weight.shape[0])


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None):
    """``y_k = x1^T W_k x2 + b_k`` for each output feature ``k``."""
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} "
                           f"and {input2.dim()}")
    for d in range(input1.dim() - 1):
        if input1.shape[d] != input2.shape[d]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {d}: "
                               f"got {input1.shape[d]} and {input2.shape[d]}")
    k, i, j = weight.shape
    lead = input1.shape[:-1]
    # (PyTorch: the inputs flattened to rows, one _trilinear node, the result reshaped)
    x1 = input1.reshape(-1, input1.shape[-1])
    x2 = input2.reshape(-1, input2.shape[-1])
    out = _ops()["trilinear"](x1, weight, x2).reshape(tuple(lead) + (k,))
    if bias is not None:
        out = out + bias
    return out


# ---------------------------------------------------------------- activations
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(x, 0)`` elementwise (``ReluBackward0``)."""
    if inplace:
        return input.relu_()
    out = _fast.relu(input)
    return input.relu() if out is None else out



def relu_(input: Tensor) -> Tensor:
    """In-place ``relu``."""
    return input.relu_()


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit (``GeluBackward0``)."""
    return _ops()["gelu"](input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * sigmoid(x)`` (``SiluBackward0``)."""
    return _ops()["silu_" if inplace else "silu"](input)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """Exponential linear unit (``EluBackward0``; in place ``EluBackward1``)."""
    return _ops()["elu_" if inplace else "elu"](input, alpha=alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return elu(input, alpha, True)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``x`` or ``negative_slope * x`` (``LeakyReluBackward0``; in place
    ``LeakyReluBackward1``, which saves its result)."""
    return _ops()["leaky_relu_" if inplace else "leaky_relu"](input,
                                                              negative_slope=negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, True)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * x)) / beta`` (``SoftplusBackward0``)."""
    return _ops()["softplus"](input, beta=beta, threshold=threshold)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """``x`` clipped to ``[min_val, max_val]`` (``HardtanhBackward0``)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _ops()["hardtanh_" if inplace else "hardtanh"](input, min_val=min_val,
                                                          max_val=max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return hardtanh(input, min_val, max_val, True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(x, 0), 6)``."""
    return hardtanh(input, 0.0, 6.0, inplace)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``x`` for x > 0, ``weight * x`` otherwise (one weight, or one per channel).

    >>> F.prelu(tensorviz.tensor([-2.0, 3.0]), tensorviz.tensor([0.25]))
    tensor([-0.5000,  3.0000])
    """
    if isinstance(input, Tensor) and isinstance(weight, Tensor) and weight.dim() <= 1 and \
            input.dim() != weight.dim() and input.dim() >= 1 and (
                weight.numel() == 1 or (input.dim() > 1 and input.shape[1] == weight.numel())):
        # (PyTorch views the weight to the input's rank first: a ViewBackward0 under the node)
        shape = [1] * input.dim()
        if input.dim() > 1:
            shape[1] = weight.numel()
        weight = weight.view(shape) if weight.is_contiguous() else weight.reshape(shape)
    return _ops()["prelu"](input, weight)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
          training: bool = False, inplace: bool = False) -> Tensor:
    """Randomized leaky ReLU (the mean slope in evaluation): one ``RreluWithNoiseBackward0``
    node (in place ``RreluWithNoiseBackward1``), as PyTorch records it.

    >>> F.rrelu(tensorviz.tensor([-1.0, 2.0]), 0.25, 0.25)
    tensor([-0.2500,  2.0000])
    """
    noise = None
    if training:
        a = tv.empty_like(input).uniform_(lower, upper)
        noise = tv.where(input > 0, tv.ones_like(a), a)
    return _ops()["rrelu_with_noise_" if inplace else "rrelu_with_noise"](
        input, noise, lower, upper, training)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """Scaled ELU with PyTorch's constants."""
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    return _ops()["elu_" if inplace else "elu"](input, alpha=alpha, scale=scale)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    return _ops()["celu_" if inplace else "celu"](input, alpha=alpha)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * tanh(softplus(x))``."""
    return _ops()["mish_" if inplace else "mish"](input)


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(-x))``."""
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return input.tanh()


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``clamp(x / 6 + 1/2, 0, 1)``."""
    return _ops()["hardsigmoid_" if inplace else "hardsigmoid"](input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * hardsigmoid(x)``."""
    return _ops()["hardswish_" if inplace else "hardswish"](input)


def softsign(input: Tensor) -> Tensor:
    """``x / (1 + |x|)``."""
    return input / (input.abs() + 1)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x))``, computed stably."""
    return _ops()["logsigmoid"](input)


def tanhshrink(input: Tensor) -> Tensor:
    """``x - tanh(x)``."""
    return input - input.tanh()


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """Shrink towards 0 by ``lambd``; 0 inside ``[-lambd, lambd]``."""
    return _ops()["softshrink"](input, lambd=lambd)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x`` outside ``[-lambd, lambd]``, 0 inside."""
    return _ops()["hardshrink"](input, lambd=lambd)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``x`` where ``x > threshold``, ``value`` elsewhere."""
    return _ops()["threshold_" if inplace else "threshold"](input, threshold=threshold,
                                                            value=value)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """In-place ``threshold``: ``x`` where ``x > threshold``, else ``value``.

    >>> tensorviz.nn.functional.threshold_(tensorviz.tensor([-1.0, 0.5, 2.0]), 0.6, 9.0)
    tensor([9., 9., 2.])
    """
    return globals()["threshold"](input, threshold, value, True)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """Gated linear unit: ``a * sigmoid(b)`` for the two halves of ``dim``."""
    if input.shape[dim] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % input.dim()} "
                           f"is size {input.shape[dim]}")
    return _ops()["glu"](input, dim=dim)


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim`` (``SoftmaxBackward0``)."""
    if dim is None:
        dim = _implicit_dim("softmax", input.dim())
    return input.softmax(dim, dtype=dtype) if dtype is not None else input.softmax(dim)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype=None) -> Tensor:
    """``log(softmax(x))`` along ``dim``, computed stably (``LogSoftmaxBackward0``)."""
    if dim is None:
        dim = _implicit_dim("log_softmax", input.dim())
    if dtype is not None:
        return input.log_softmax(dim, dtype=dtype)
    out = _fast.log_softmax(input, dim)
    return input.log_softmax(dim) if out is None else out


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """``softmax(-x)``."""
    if dim is None:
        dim = _implicit_dim("softmin", input.dim())
    return softmax(-input, dim, dtype=dtype)


def _implicit_dim(name: str, ndim: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


# ---------------------------------------------------------------- dropout
def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)``; in
    evaluation (``training=False``) the input itself is returned."""
    _check_p(p)
    if not training or p == 0:
        return input
    if p == 1:
        return input.mul_(0) if inplace else input * 0
    mask = (tv.empty_like(input).uniform_(0, 1) >= p).to(input.dtype) / (1 - p)
    return input.mul_(mask) if inplace else input * mask


def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool, keep: int):
    _check_p(p)
    if not training or p == 0:
        return input
    shape = tuple(input.shape[:keep]) + (1,) * (input.dim() - keep)
    mask = (tv.empty(shape, dtype=input.dtype, device=input.device).uniform_(0, 1) >= p)
    mask = mask.to(input.dtype) / (1 - p) if p < 1 else mask.to(input.dtype)
    return input.mul_(mask) if inplace else input * mask


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of a (N, C, L) or (C, L) input."""
    return _feature_dropout(input, p, training, inplace, input.dim() - 1)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of a (N, C, H, W) input."""
    return _feature_dropout(input, p, training, inplace, 2 if input.dim() == 4 else 1)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of a (N, C, D, H, W) input."""
    return _feature_dropout(input, p, training, inplace, 2 if input.dim() == 5 else 1)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                  inplace: bool = False) -> Tensor:
    """Dropout that keeps SELU's mean and variance."""
    _check_p(p)
    if not training or p == 0:
        return input
    alpha = -1.7580993408473766
    keep = (tv.empty_like(input).uniform_(0, 1) >= p).to(input.dtype)
    a = ((1 - p) * (1 + p * alpha ** 2)) ** -0.5
    b = -a * alpha * p
    out = (input * keep + alpha * (1 - keep)) * a + b
    return input.copy_(out) if inplace else out


feature_alpha_dropout = alpha_dropout


# ---------------------------------------------------------------- normalization
def _bn_stats_shape(input: Tensor) -> tuple:
    return (1, input.shape[1]) + (1,) * (input.dim() - 2)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalize each channel (dim 1) by the batch's mean and (biased) variance in training,
    by the running statistics otherwise; ``running_*`` are updated in training with the
    unbiased variance (``NativeBatchNormBackward0``)."""
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is not None and input.dim() > 1 and t.numel() != input.shape[1]:
            raise RuntimeError(f"{name} should contain {input.shape[1]} elements not "
                               f"{t.numel()}")
    if training:
        size = input.numel() // input.shape[1] if input.dim() > 1 else 1
        if size == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input "
                             f"size {input.shape}")
    return _ops()["batch_norm"](input, weight, bias, running_mean, running_var, training,
                                momentum, eps)


def layer_norm(input: Tensor, normalized_shape: Sequence[int], weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalize over the last ``len(normalized_shape)`` dims (``NativeLayerNormBackward0``)."""
    normalized_shape = tuple(normalized_shape) if isinstance(normalized_shape, (list, tuple)) \
        else (normalized_shape,)
    if tuple(input.shape[input.dim() - len(normalized_shape):]) != normalized_shape:
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input "
                           f"with shape [*, {', '.join(map(str, normalized_shape))}], but got "
                           f"input of size{list(input.shape)}")
    return _ops()["layer_norm"](input, normalized_shape, weight, bias, eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalize groups of channels over (channels in group, spatial dims)."""
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input.shape)} and "
                           "num_groups="
                           f"{num_groups}")
    return _ops()["group_norm"](input, num_groups, weight, bias, eps)


def instance_norm(input: Tensor, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats: bool = True, momentum: float = 0.1,
                  eps: float = 1e-5) -> Tensor:
    """Normalize each (sample, channel) over its spatial dims: PyTorch's route, a batch norm
    of the (1, N*C, ...) view (so the result is a ``ViewBackward0`` of a
    ``NativeBatchNormBackward0``); running statistics are averaged over the samples."""
    if use_input_stats:
        spatial = math.prod(input.shape[2:])
        if spatial == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input "
                             f"size {input.shape}")
    b, c = input.shape[0], input.shape[1]
    x = input.contiguous().view((1, b * c) + tuple(input.shape[2:]))
    w = weight.repeat(b) if weight is not None else None
    bb = bias.repeat(b) if bias is not None else None
    rm = running_mean.repeat(b) if running_mean is not None else None
    rv = running_var.repeat(b) if running_var is not None else None
    out = _ops()["batch_norm"](x, w, bb, rm, rv, use_input_stats, momentum, eps)
    if running_mean is not None and use_input_stats:
        with tv.no_grad():
            running_mean.copy_(rm.view(b, c).mean(0))
            running_var.copy_(rv.view(b, c).mean(0))
    return out.view(input.shape)


def rms_norm(input: Tensor, normalized_shape, weight=None, eps=None) -> Tensor:
    """``x / sqrt(mean(x^2) + eps)`` over the last dims, times ``weight``."""
    normalized_shape = tuple(normalized_shape) if isinstance(normalized_shape, (list, tuple)) \
        else (normalized_shape,)
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    if eps is None:
        eps = tv.finfo(input.dtype).eps
    from ..autograd._formulas import _sadd
    y = input * _sadd(input.pow(2).mean(dims, keepdim=True), eps).rsqrt()
    return y * weight if weight is not None else y


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """Normalize across nearby channels."""
    # (PyTorch's Python composition: an average pool over the padded squares across channels)
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = _ops()["avg_pool3d"](div, (size, 1, 1), 1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


# ---------------------------------------------------------------- embedding
def _has_values(t: Tensor) -> bool:
    """Whether ``t`` has values to check (PyTorch's meta kernels skip checks on values)."""
    return builtins.bool(t.numel()) and not t.is_meta


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Rows of ``weight`` picked by the integer ``input`` (``EmbeddingBackward0``); rows at
    ``padding_idx`` get no gradient; ``max_norm`` renormalizes the rows used, in place."""
    if input.dtype not in (_dtypes.int64, _dtypes.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the "
                           "following scalar types: Long, Int; but got "
                           f"{input.type().replace('tensorviz.', 'torch.')} instead (while "
                           "checking arguments for embedding)")
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= weight.shape[0]:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            if padding_idx < -weight.shape[0]:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.shape[0] + padding_idx
    if _has_values(input) and (bool((input >= weight.shape[0]).any())
                               or bool((input < 0).any())):
        raise IndexError("index out of range in self")
    if max_norm is not None:
        with tv.no_grad():
            rows = input.reshape(-1).unique()
            norms = weight[rows].norm(norm_type, 1, keepdim=True)
            scale = tv.where(norms > max_norm, max_norm / (norms + 1e-7), tv.ones_like(norms))
            weight[rows] = weight[rows] * scale
    return _ops()["embedding"](weight, input, -1 if padding_idx is None else padding_idx,
                               scale_grad_by_freq)


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None,
                  max_norm=None, norm_type=2, scale_grad_by_freq=False, mode: str = "mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None) -> Tensor:
    """Sums, means or maxima of bags of embedding rows (``EmbeddingBagBackward0``)."""
    return _ops()["embedding_bag"](input, weight, offsets, max_norm, norm_type,
                                   scale_grad_by_freq, mode, sparse, per_sample_weights,
                                   include_last_offset, padding_idx)


def _embedding_bag_impl(input: Tensor, weight: Tensor, offsets: Tensor | None = None,
                        max_norm=None, norm_type=2, scale_grad_by_freq=False,
                        mode: str = "mean", sparse=False, per_sample_weights=None,
                        include_last_offset=False, padding_idx=None) -> Tensor:
    if input.dim() == 2:
        bags = [input[i] for i in range(input.shape[0])]
    else:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        offs = [int(o) for o in offsets.tolist()]
        ends = offs[1:] + ([] if include_last_offset else [input.shape[0]])
        if include_last_offset:
            offs = offs[:-1]
        bags = [input[s:e] for s, e in zip(offs, ends)]
    outs = []
    for i, bag in enumerate(bags):
        if padding_idx is not None:
            bag = bag[bag != padding_idx]
        if bag.numel() == 0:
            outs.append(tv.zeros(weight.shape[1], dtype=weight.dtype, device=weight.device))
            continue
        rows = embedding(bag, weight, max_norm=max_norm, norm_type=norm_type)
        if per_sample_weights is not None:
            rows = rows * per_sample_weights.reshape(-1, 1)[:bag.shape[0]]
        outs.append(rows.sum(0) if mode == "sum" else rows.mean(0) if mode == "mean"
                    else rows.amax(0))
    return tv.stack(outs)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 one-hot rows: ``out[..., c] = (tensor == c)``."""
    if tensor.dtype is not _dtypes.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if tensor.numel() == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(tensor.max()) + 1
    if _has_values(tensor) and (bool((tensor < 0).any())):
        raise RuntimeError("Class values must be non-negative.")
    if _has_values(tensor) and int(tensor.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return (tensor.unsqueeze(-1) == tv.arange(num_classes, device=tensor.device)).long()


# ---------------------------------------------------------------- padding
def pad(input: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None):
    """Pad the last ``len(pad)//2`` dims: ``pad = (left, right, top, bottom, ...)`` from the
    last dim backwards; ``mode`` constant / reflect / replicate / circular; negative pads
    crop."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input "
                           "dimension but got padding length " f"{len(pad)} and input of "
                           f"dimension {input.dim()}")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    pad = tuple(int(p) for p in pad)
    k = len(pad) // 2
    if mode == "constant":
        return _ops()["constant_pad_nd"](input, pad, mode, value)
    if mode in ("reflect", "replicate") and 1 <= k <= 3:
        name = "reflection" if mode == "reflect" else "replication"
        return _ops()[f"{name}_pad{k}d"](input, pad, mode, value)
    return _pad_impl(input, pad, mode, value)


def _pad_impl(input: Tensor, pad, mode: str = "constant", value: float | None = None):
    out = input
    for i in range(len(pad) // 2):
        d = input.dim() - 1 - i
        lo, hi = int(pad[2 * i]), int(pad[2 * i + 1])
        out = _pad_dim(out, d, lo, hi, mode, 0.0 if value is None else value)
    return out


def _pad_dim(x: Tensor, d: int, lo: int, hi: int, mode: str, value: float) -> Tensor:
    if lo < 0:
        x = x.narrow(d, -lo, x.shape[d] + lo)
        lo = 0
    if hi < 0:
        x = x.narrow(d, 0, x.shape[d] + hi)
        hi = 0
    if lo == 0 and hi == 0:
        return x
    n = x.shape[d]
    if mode == "constant":
        parts = []
        if lo:
            s = list(x.shape)
            s[d] = lo
            parts.append(tv.full(s, value, dtype=x.dtype, device=x.device))
        parts.append(x)
        if hi:
            s = list(x.shape)
            s[d] = hi
            parts.append(tv.full(s, value, dtype=x.dtype, device=x.device))
        return tv.cat(parts, d)
    if mode == "reflect":
        if lo >= n or hi >= n:
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding "
                               f"input dimension, but got: padding ({lo}, {hi}) at dimension {d} "
                               f"of input {list(x.shape)}")
        idx = list(range(lo, 0, -1)) + list(range(n)) + list(range(n - 2, n - 2 - hi, -1))
    elif mode == "replicate":
        idx = [0] * lo + list(range(n)) + [n - 1] * hi
    else:
        idx = [(i - lo) % n for i in range(n + lo + hi)]
    return x.index_select(d, tv.tensor(idx, device=x.device))


# ---------------------------------------------------------------- convolution
def _windows(x: Tensor, kernel: tuple, stride: tuple, dilation: tuple) -> Tensor:
    """The strided window view ``(N, C, *out, *kernel)`` of a (padded, contiguous) input:
    every kernel position reads exactly these storage slots, nothing is copied."""
    sp = x.dim() - 2
    out = tuple((x.shape[2 + i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
                for i in range(sp))
    st = x.stride()
    size = tuple(x.shape[:2]) + out + kernel
    strides = tuple(st[:2]) + tuple(st[2 + i] * stride[i] for i in range(sp)) + \
        tuple(st[2 + i] * dilation[i] for i in range(sp))
    return x.as_strided(size, strides, x.storage_offset())


_SAME_PAD_WARNED = False


def _conv_args(input, weight, stride, padding, dilation, groups, sp: int, name: str):
    if input.dim() not in (sp + 1, sp + 2):
        raise RuntimeError(f"Expected {sp + 1}D (unbatched) or {sp + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(input.shape)}")
    stride = _tuple(stride, sp)
    dilation = _tuple(dilation, sp)
    kernel = tuple(weight.shape[2:])
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0,) * sp
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = [dilation[i] * (kernel[i] - 1) for i in range(sp)]
            global _SAME_PAD_WARNED
            if any(t % 2 for t in total) and not _SAME_PAD_WARNED:
                # (PyTorch warns once per process: TORCH_WARN_ONCE)
                _SAME_PAD_WARNED = True
                warnings.warn("Using padding='same' with even kernel lengths and odd dilation "
                              "may require a zero-padded copy of the input be created",
                              UserWarning, stacklevel=4)
            padding = tuple((t // 2, t - t // 2) for t in total)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        padding = tuple((p, p) for p in _tuple(padding, sp))
    if isinstance(padding[0], int):
        padding = tuple((p, p) for p in padding)
    c = input.shape[-sp - 1]
    if weight.shape[0] % groups != 0:
        # (PyTorch's message prints the size inside a second pair of brackets)
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{list(weight.shape)}] "
                           "instead")
    if weight.shape[1] * groups != c:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, "
                           f"expected input{list(input.shape)} to have "
                           f"{weight.shape[1] * groups} channels, but got {c} channels instead")
    padded = [input.shape[-sp + i] + padding[i][0] + padding[i][1] for i in range(sp)]
    eff = [dilation[i] * (kernel[i] - 1) + 1 for i in range(sp)]
    if any(eff[i] > padded[i] for i in range(sp)):
        raise RuntimeError("Calculated padded input size per channel: ("
                           f"{' x '.join(str(v) for v in padded)}). Kernel size: ("
                           f"{' x '.join(str(v) for v in eff)}). Kernel size can't be greater "
                           "than actual input size")
    return stride, padding, dilation


def _convnd(input, weight, bias, stride, padding, dilation, groups, sp: int, name: str):
    unbatched = input.dim() == sp + 1
    if unbatched:
        input = input.unsqueeze(0)
    stride, padding, dilation = _conv_args(input, weight, stride, padding, dilation, groups,
                                           sp, name)
    if any(lo != hi for lo, hi in padding):
        # (padding='same' with an even total: PyTorch pads the input by the difference first,
        # a ConstantPadNdBackward0, then convolves with symmetric padding)
        pads = []
        for lo, hi in reversed(padding):
            pads += [0, hi - lo]
        input = pad(input, pads)
        padding = tuple((lo, lo) for lo, _ in padding)
    out = _ops()["convolution"](input, weight, bias, stride, padding, dilation, groups)
    return out.squeeze(0) if unbatched else out


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """1-D convolution (cross-correlation) of (N, C, L) with (O, C/groups, k)."""
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """2-D convolution of (N, C, H, W) with (O, C/groups, kh, kw): a strided window view
    of the padded input and one matrix product (``ConvolutionBackward0``).

    >>> F.conv2d(tensorviz.ones(1, 1, 4, 4), tensorviz.ones(1, 1, 3, 3)).shape
    tensorviz.Size([1, 1, 2, 2])
    """
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """3-D convolution of (N, C, D, H, W)."""
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation,
                    sp: int):
    """Transposed convolution, recorded as one ``ConvolutionBackward0`` node as in PyTorch
    (the kernel is ``_conv_transpose_impl``)."""
    unbatched = input.dim() == sp + 1
    if unbatched:
        input = input.unsqueeze(0)
    out = _ops()["convolution_transpose"](input, weight, bias, _tuple(stride, sp),
                                   _tuple(padding, sp), _tuple(output_padding, sp), groups,
                                   _tuple(dilation, sp))
    return out.squeeze(0) if unbatched else out


def _conv_transpose_impl(input, weight, bias, stride, padding, output_padding, groups,
                         dilation) -> Tensor:
    """Transposed convolution as the gradient of a convolution: zeros inserted between the
    (batched) input's elements, then a convolution with the flipped, transposed kernel."""
    sp = input.dim() - 2
    stride = _tuple(stride, sp)
    padding = _tuple(padding, sp)
    output_padding = _tuple(output_padding, sp)
    dilation = _tuple(dilation, sp)
    n, c = input.shape[:2]
    k = tuple(weight.shape[2:])
    # dilate the input by the stride
    x = input
    for i in range(sp):
        if stride[i] > 1:
            d = 2 + i
            L = x.shape[d]
            shape = list(x.shape)
            shape[d] = (L - 1) * stride[i] + 1
            z = tv.zeros(shape, dtype=x.dtype, device=x.device)
            idx = tv.arange(0, shape[d], stride[i], device=x.device)
            x = z.index_add(d, idx, x)
    pads = []
    for i in reversed(range(sp)):
        p = dilation[i] * (k[i] - 1) - padding[i]
        pads += [p, p + output_padding[i]]
    x = pad(x, pads)
    cin, cout_g = weight.shape[0], weight.shape[1]
    w = weight.reshape(groups, cin // groups, cout_g, *k).transpose(1, 2).reshape(
        groups * cout_g, cin // groups, *k).flip(tuple(range(2, 2 + sp)))
    return _ops()["convolution"](x, w, bias, (1,) * sp, tuple((0, 0) for _ in range(sp)),
                                 dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1) -> Tensor:
    """1-D transposed convolution."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 1)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1) -> Tensor:
    """2-D transposed convolution (weight (C_in, C_out/groups, kh, kw))."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 2)


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """im2col: (N, C, H, W) -> (N, C*kh*kw, L), the window view laid out as columns
    (``Im2ColBackward0``)."""
    return _ops()["im2col"](input, kernel_size, dilation, padding, stride)


def _unfold_impl(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    k = _tuple(kernel_size, 2)
    d = _tuple(dilation, 2)
    p = _tuple(padding, 2)
    s = _tuple(stride, 2)
    x = pad(input, (p[1], p[1], p[0], p[0])).contiguous()
    w = _windows(x, k, s, d)  # (N, C, OH, OW, kh, kw)
    n, c, oh, ow = w.shape[:4]
    return w.permute(0, 1, 4, 5, 2, 3).reshape(n, c * k[0] * k[1], oh * ow)


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """col2im: sums columns (N, C*kh*kw, L) back into (N, C, H, W) (the adjoint of unfold;
    ``Col2ImBackward0``)."""
    return _ops()["col2im"](input, output_size, kernel_size, dilation, padding, stride)


def _fold_impl(input: Tensor, output_size, kernel_size, dilation=1, padding=0,
               stride=1) -> Tensor:
    k = _tuple(kernel_size, 2)
    d = _tuple(dilation, 2)
    p = _tuple(padding, 2)
    s = _tuple(stride, 2)
    oh_, ow_ = _tuple(output_size, 2)
    n = input.shape[0]
    c = input.shape[1] // (k[0] * k[1])
    hp, wp = oh_ + 2 * p[0], ow_ + 2 * p[1]
    pos = tv.arange(c * hp * wp, device=input.device).reshape(1, c, hp, wp)
    win = _windows(pos, k, s, d)  # (1, C, OH, OW, kh, kw)
    oh, ow = win.shape[2:4]
    idx = win.permute(0, 1, 4, 5, 2, 3).reshape(-1)
    flat = tv.zeros(n, c * hp * wp, dtype=input.dtype, device=input.device)
    flat = flat.index_add(1, idx, input.reshape(n, -1))
    out = flat.reshape(n, c, hp, wp)
    return out[:, :, p[0]:p[0] + oh_, p[1]:p[1] + ow_]


# ---------------------------------------------------------------- pooling
def _pool_args(kernel_size, stride, padding, dilation, sp):
    k = _tuple(kernel_size, sp)
    s = k if stride is None or (isinstance(stride, (list, tuple)) and not stride) else \
        _tuple(stride, sp)
    return k, s, _tuple(padding, sp), _tuple(dilation, sp)


def _pool_out(size, k, s, p, d, ceil_mode):
    num = size + 2 * p - d * (k - 1) - 1
    out = (num + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _check_pool_out(input, outs, sp):
    """PyTorch's refusal of a pooling whose output would be empty."""
    if any(o <= 0 for o in outs):
        given = "x".join(str(v) for v in input.shape[-sp - 1:])
        calc = "x".join(str(v) for v in (input.shape[-sp - 1],) + tuple(outs))
        raise RuntimeError(f"Given input size: ({given}). Calculated output size: ({calc}). "
                           "Output size is too small")


def _max_poolnd(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, sp):
    k, s, p, d = _pool_args(kernel_size, stride, padding, dilation, sp)
    for i in range(sp):
        if p[i] > k[i] // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p[i]}, kernel_size={k[i]} and dilation={d[i]}")
    _check_pool_out(input, [_pool_out(input.shape[-sp + i], k[i], s[i], p[i], d[i], ceil_mode)
                            for i in range(sp)], sp)
    out, idx = _ops()["max_pool"](input, k, s, p, d, ceil_mode)
    return (out, idx) if return_indices else out


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Maximum over sliding windows of the last dim (``return_indices``: where); PyTorch's
    route: a 2-D pooling of one row, squeezed (``SqueezeBackward1``)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"max_pool1d() Expected 2D or 3D input tensor, but got "
                           f"{list(input.shape)}")
    (k,) = _tuple(kernel_size, 1)
    (s,) = _tuple(stride, 1) if stride is not None and stride != () else (k,)
    (p,) = _tuple(padding, 1)
    (d,) = _tuple(dilation, 1)
    out = _max_poolnd(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode, True, 2)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out[0].squeeze(-2)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Maximum over sliding 2-D windows (a strided window view of the input); the indices
    are flat positions in each input plane (``MaxPool2DWithIndicesBackward0``)."""
    return _max_poolnd(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2)


def _avg_poolnd(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                divisor_override, sp):
    unbatched = input.dim() == sp + 1
    if unbatched:
        input = input.unsqueeze(0)
    k, s, p, _ = _pool_args(kernel_size, stride, padding, 1, sp)
    for i in range(sp):
        if p[i] > k[i] // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p[i]}, kernel_size={k[i]} and dilation=1")
    outs = [_pool_out(input.shape[2 + i], k[i], s[i], p[i], 1, ceil_mode) for i in range(sp)]
    _check_pool_out(input, outs, sp)
    extra = [builtins.max(0, (outs[i] - 1) * s[i] + k[i] - (input.shape[2 + i] + 2 * p[i]))
             for i in range(sp)]
    pads = []
    for i in reversed(range(sp)):
        pads += [p[i], p[i] + extra[i]]
    x = pad(input, pads).contiguous()
    w = _windows(x, k, s, (1,) * sp)
    kdims = tuple(range(2 + sp, 2 + 2 * sp))
    total = w.sum(kdims)
    if divisor_override:
        out = total / divisor_override
    elif count_include_pad and not builtins.any(extra):
        out = total / math.prod(k)
    else:
        ones = tv.ones((1, 1) + tuple(input.shape[2:]), dtype=input.dtype, device=input.device)
        if count_include_pad:
            ones = pad(ones, pads[:], value=1.0)
            cut = []
            for i in reversed(range(sp)):
                cut += [0, -extra[i]]
            ones = pad(ones, cut)
            ones = pad(ones, [e for i in reversed(range(sp)) for e in (0, extra[i])])
        else:
            ones = pad(ones, pads)
        cnt = _windows(ones.contiguous(), k, s, (1,) * sp).sum(kdims)
        out = total / cnt
    return out.squeeze(0) if unbatched else out


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """Mean over sliding windows of the last dim (PyTorch's route: a 2-D pooling of one row,
    squeezed: ``SqueezeBackward1``)."""
    (k,) = _tuple(kernel_size, 1)
    (s,) = _tuple(stride, 1) if stride is not None and stride != () else (k,)
    (p,) = _tuple(padding, 1)
    return avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode,
                      count_include_pad).squeeze(-2)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """Mean over sliding 2-D windows (a strided window view of the input;
    ``AvgPool2DBackward0``)."""
    return _ops()["avg_pool2d"](input, kernel_size, stride, padding, ceil_mode,
                                count_include_pad, divisor_override)


def _avg_pool2d_impl(input, kernel_size, stride=None, padding=0, ceil_mode=False,
                     count_include_pad=True, divisor_override=None):
    return _avg_poolnd(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                       divisor_override, 2)


def _avg_pool3d_impl(input, kernel_size, stride=None, padding=0, ceil_mode=False,
                     count_include_pad=True, divisor_override=None):
    """Mean over sliding 3-D windows (``AvgPool3DBackward0``: ``local_response_norm`` of
    4-D and larger inputs pools with it, as PyTorch's)."""
    return _avg_poolnd(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                       divisor_override, 3)


def _adaptive_ranges(size: int, out: int):
    return [(math.floor(i * size / out), math.ceil((i + 1) * size / out)) for i in range(out)]


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Mean over the windows that split H and W into ``output_size`` near-equal parts
    (``AdaptiveAvgPool2DBackward0``; an output of 1x1 is a plain mean, as PyTorch's)."""
    oh, ow = _tuple(output_size, 2) if output_size is not None else input.shape[-2:]
    h, w = input.shape[-2:]
    if (h if oh is None else oh) == 1 and (w if ow is None else ow) == 1:
        return input.mean((-2, -1), keepdim=True)
    return _ops()["adaptive_avg_pool2d"](input, output_size)


def _adaptive_avg_pool2d_impl(input: Tensor, output_size) -> Tensor:
    oh, ow = _tuple(output_size, 2) if output_size is not None else input.shape[-2:]
    h, w = input.shape[-2:]
    oh = h if oh is None else oh
    ow = w if ow is None else ow
    if h % oh == 0 and w % ow == 0:
        x = input.reshape(*input.shape[:-2], oh, h // oh, ow, w // ow)
        return x.mean((-3, -1))
    rows = []
    for r0, r1 in _adaptive_ranges(h, oh):
        cols = [input[..., r0:r1, c0:c1].mean((-2, -1)) for c0, c1 in _adaptive_ranges(w, ow)]
        rows.append(tv.stack(cols, -1))
    return tv.stack(rows, -2)


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """Mean over ``output_size`` near-equal windows of the last dim."""
    (o,) = _tuple(output_size, 1)
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, o)).squeeze(-2)


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """Maximum over the windows that split H and W into ``output_size`` parts
    (``AdaptiveMaxPool2DBackward0``)."""
    out = _ops()["adaptive_max_pool2d"](input, output_size)
    if not return_indices:
        return out
    with tv.no_grad():
        idx = _adaptive_max_pool2d_full(input, output_size)[1]
    return out, idx


def _adaptive_max_pool2d_impl(input: Tensor, output_size) -> Tensor:
    return _adaptive_max_pool2d_full(input, output_size)[0]


def _adaptive_max_pool2d_full(input: Tensor, output_size):
    oh, ow = _tuple(output_size, 2)
    h, w = input.shape[-2:]
    rows, irows = [], []
    for r0, r1 in _adaptive_ranges(h, oh):
        cols, icols = [], []
        for c0, c1 in _adaptive_ranges(w, ow):
            win = input[..., r0:r1, c0:c1].reshape(*input.shape[:-2], -1)
            v, i = win.max(-1)
            cols.append(v)
            icols.append((i // (c1 - c0) + r0) * w + i % (c1 - c0) + c0)
        rows.append(tv.stack(cols, -1))
        irows.append(tv.stack(icols, -1))
    return tv.stack(rows, -2), tv.stack(irows, -2)


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """Maximum over ``output_size`` windows of the last dim."""
    out = adaptive_max_pool2d(input.unsqueeze(-2), (1, output_size), return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum x^p over each window)^(1/p)``."""
    k = _tuple(kernel_size, 2)
    out = avg_pool2d(input.pow(norm_type), k, stride, 0, ceil_mode)
    return (out.sign() * out.abs().relu() * (k[0] * k[1])).pow(1.0 / norm_type)


# ---------------------------------------------------------------- resampling
_UPSAMPLE_OPS = {"nearest": "upsample_nearest{}d", "nearest-exact": "upsample_nearest_exact{}d",
                 "linear": "upsample_linear1d", "bilinear": "upsample_bilinear2d",
                 "bicubic": "upsample_bicubic2d", "trilinear": "upsample_trilinear3d"}
_UPSAMPLE_DIMS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",
                align_corners=None, recompute_scale_factor=None, antialias=False) -> Tensor:
    """Resize the spatial dims: ``nearest`` (index picking), ``linear``/``bilinear``
    (weighted sums of neighbours), ``bicubic`` or ``area``, as PyTorch computes the source
    positions (one node each: ``UpsampleNearest2DBackward0`` ...)."""
    ok = input.dim() in (3, 4, 5) and mode in _UPSAMPLE_OPS and \
        _UPSAMPLE_DIMS.get(mode, input.dim()) == input.dim() and \
        (align_corners is None or mode not in ("nearest", "nearest-exact")) and \
        (size is None) != (scale_factor is None)
    if not ok:  # (area, or a refusal with PyTorch's message)
        return _interpolate_impl(input, size, scale_factor, mode, align_corners,
                                 recompute_scale_factor, antialias)
    name = _UPSAMPLE_OPS[mode].format(input.dim() - 2)
    return _ops()[name](input, size, scale_factor, mode, align_corners, recompute_scale_factor,
                        antialias)


def _interpolate_impl(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",
                      align_corners=None, recompute_scale_factor=None,
                      antialias=False) -> Tensor:
    sp = input.dim() - 2
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    need = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}.get(mode)
    if need is not None and input.dim() != need and input.dim() in (3, 4, 5):
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {need}D "
                                  "input")
    if input.dim() not in (3, 4, 5) or mode not in ("nearest", "linear", "bilinear", "bicubic",
                                                    "trilinear", "area", "nearest-exact"):
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported"
                                  f" (got {input.dim()}D) for the modes: nearest | linear | "
                                  f"bilinear | bicubic | trilinear | lanczos | area | "
                                  f"nearest-exact (got {mode})")
    in_sizes = input.shape[2:]
    if size is not None:
        out_sizes = _tuple(size, sp)
        scales = [None] * sp
    else:
        sf = scale_factor if isinstance(scale_factor, (list, tuple)) else [scale_factor] * sp
        out_sizes = tuple(int(math.floor(in_sizes[i] * sf[i])) for i in range(sp))
        scales = [None if recompute_scale_factor else sf[i] for i in range(sp)]
    if mode == "area":
        if sp == 3:
            raise NotImplementedError("interpolate(mode='area') of 5-D input is not supported "
                                      "in tensorviz yet")
        return (adaptive_avg_pool1d if sp == 1 else adaptive_avg_pool2d)(input, out_sizes)
    x = input
    for i in range(sp):
        d = 2 + i
        n_in, n_out = in_sizes[i], out_sizes[i]
        scale = (1.0 / scales[i]) if scales[i] else n_in / n_out
        if mode in ("nearest", "nearest-exact"):
            off = 0.5 if mode == "nearest-exact" else 0.0
            idx = [builtins.min(int(math.floor((j + off) * scale)), n_in - 1)
                   for j in range(n_out)]
            x = x.index_select(d, tv.tensor(idx, device=x.device))
        elif mode in ("linear", "bilinear", "trilinear"):
            if align_corners:
                src = [j * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0 for j in range(n_out)]
            else:
                src = [builtins.max((j + 0.5) * scale - 0.5, 0.0) for j in range(n_out)]
            i0 = [builtins.min(int(math.floor(v)), n_in - 1) for v in src]
            i1 = [builtins.min(a + 1, n_in - 1) for a in i0]
            lam = [v - a for v, a in zip(src, i0)]
            shape = [1] * x.dim()
            shape[d] = n_out
            w1 = tv.tensor(lam, dtype=x.dtype, device=x.device).reshape(shape)
            a = x.index_select(d, tv.tensor(i0, device=x.device))
            b = x.index_select(d, tv.tensor(i1, device=x.device))
            x = a * (1 - w1) + b * w1
        elif mode == "bicubic":
            x = _cubic_along(x, d, n_in, n_out, scale, align_corners)
        else:
            raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported"
                                      f" (got {input.dim()}D) for the modes: nearest | linear | "
                                      f"bilinear | bicubic | trilinear | area | nearest-exact "
                                      f"(got {mode})")
    return x


def _cubic_along(x: Tensor, d: int, n_in: int, n_out: int, scale: float, align_corners):
    """PyTorch's bicubic resampling along dim ``d``: four taps (indices clamped to the edge)
    weighted by the cubic convolution kernel with A = -0.75."""
    A = -0.75
    taps = [[], [], [], []]
    weights = [[], [], [], []]
    for j in range(n_out):
        if align_corners:
            src = j * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        else:
            src = (j + 0.5) * scale - 0.5
        f = math.floor(src)
        t = src - f
        w = [((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A,
             ((A + 2) * t - (A + 3)) * t * t + 1,
             ((A + 2) * (1 - t) - (A + 3)) * (1 - t) * (1 - t) + 1,
             ((A * (2 - t) - 5 * A) * (2 - t) + 8 * A) * (2 - t) - 4 * A]
        for k in range(4):
            taps[k].append(builtins.min(builtins.max(f - 1 + k, 0), n_in - 1))
            weights[k].append(w[k])
    shape = [1] * x.dim()
    shape[d] = n_out
    out = None
    for k in range(4):
        term = x.index_select(d, tv.tensor(taps[k], device=x.device)) * tv.tensor(
            weights[k], dtype=x.dtype, device=x.device).reshape(shape)
        out = term if out is None else out + term
    return out


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated name of ``interpolate``."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(N, C*r*r, H, W) -> (N, C, H*r, W*r) (``PixelShuffleBackward0``)."""
    return _ops()["pixel_shuffle"](input, upscale_factor)


def _pixel_shuffle_impl(input: Tensor, upscale_factor: int) -> Tensor:
    if input.shape[-3] % (upscale_factor * upscale_factor):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be "
                           "divisible by the square of upscale_factor, but input.size(-3)="
                           f"{input.shape[-3]} is not divisible by "
                           f"{upscale_factor * upscale_factor}")
    r = upscale_factor
    *b, c, h, w = input.shape
    x = input.reshape(*b, c // (r * r), r, r, h, w)
    n = len(b)
    x = x.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return x.reshape(*b, c // (r * r), h * r, w * r)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(N, C, H*r, W*r) -> (N, C*r*r, H, W) (``PixelUnshuffleBackward0``)."""
    return _ops()["pixel_unshuffle"](input, downscale_factor)


def _pixel_unshuffle_impl(input: Tensor, downscale_factor: int) -> Tensor:
    r = downscale_factor
    *b, c, h, w = input.shape
    x = input.reshape(*b, c, h // r, r, w // r, r)
    n = len(b)
    x = x.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return x.reshape(*b, c * r * r, h // r, w // r)


# ---------------------------------------------------------------- distances
def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out=None) -> Tensor:
    """``x / max(||x||_p, eps)`` along ``dim``."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps) if hasattr(input, "clamp_min") \
        else input.norm(p, dim, keepdim=True).clamp(min=eps)
    res = input / denom.expand_as(input)
    if out is not None:
        return out.copy_(res)
    return res


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """``x1.x2 / max(||x1|| ||x2||, eps)`` along ``dim`` (broadcasting).

    As PyTorch: each input divided by a clone of its norm, clamped at ``eps`` in place under
    no_grad (the value is clamped, the gradient flows as through the unclamped norm).

    >>> F.cosine_similarity(tensorviz.tensor([[1.0, 0.0]]), tensorviz.tensor([[1.0, 1.0]]))
    tensor([0.7071])
    """
    shape = tuple(tv.broadcast_shapes(x1.shape, x2.shape))
    if tuple(x1.shape) != shape or tuple(x2.shape) != shape:  # (at::expand_outplace)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = tv.linalg.vector_norm(x1, 2, dim, True).clone()
    n2 = tv.linalg.vector_norm(x2, 2, dim, True).clone()
    with tv.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """``||x1 - x2 + eps||_p`` along the last dim.

    >>> F.pairwise_distance(tensorviz.ones(2, 3), tensorviz.zeros(2, 3)).shape
    tensorviz.Size([2])
    """
    from ..autograd._formulas import _sadd, _snorm
    return _snorm(_sadd(x1 - x2, eps), p, -1, keepdim)  # (PyTorch's nodes: at::norm, add)


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """Distances between all row pairs i < j, flattened."""
    n = input.shape[0]
    idx = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if not idx:
        return tv.zeros(0, dtype=input.dtype, device=input.device)
    a = tv.tensor([i for i, _ in idx], device=input.device)
    b = tv.tensor([j for _, j in idx], device=input.device)
    return (input[a] - input[b]).norm(p, -1)


# ---------------------------------------------------------------- losses
def _reduction(reduction: str) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average, reduce, reduction: str) -> str:
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    warnings.warn("size_average and reduce args will be deprecated, please use reduction='"
                  f"{'mean' if reduce and size_average else 'sum' if reduce else 'none'}' "
                  "instead.", UserWarning, stacklevel=3)
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _target_size_warning(input: Tensor, target: Tensor) -> None:
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                      f"size ({input.shape}). This will likely lead to incorrect results due to "
                      "broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=3)


def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
             reduction: str = "mean", weight=None) -> Tensor:
    """Mean squared error ``(input - target)^2`` (``MseLossBackward0``)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction(reduction)
    _target_size_warning(input, target)
    if weight is not None:
        return _reduce((input - target).pow(2) * weight, reduction)
    return _ops()["mse_loss"](input, target, reduction)


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
            reduction: str = "mean", weight=None) -> Tensor:
    """Mean absolute error ``|input - target|``."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction(reduction)
    _target_size_warning(input, target)
    loss = (input - target).abs()
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """``0.5 d^2 / beta`` where ``|d| < beta``, ``|d| - beta/2`` elsewhere."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction(reduction)
    _target_size_warning(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return _reduce((input - target).abs(), reduction)
    return _ops()["smooth_l1_loss"](input, target, reduction, beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight=None) -> Tensor:
    """``0.5 d^2`` where ``|d| <= delta``, ``delta (|d| - delta/2)`` elsewhere."""
    _reduction(reduction)
    _target_size_warning(input, target)
    if weight is None:
        return _ops()["huber_loss"](input, target, reduction, delta)
    d = (input - target).abs()
    loss = tv.where(d < delta, d * d * 0.5, (d - 0.5 * delta) * delta)
    return _reduce(loss * weight, reduction)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log likelihood of class ``target`` under log-probabilities ``input``
    ((N, C) or (N, C, d1, ...)); ``weight`` per class; ``ignore_index`` skipped; the mean is
    weighted (``NllLossBackward0``)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction(reduction)
    if weight is None:  # (2-D CPU float32/64 and int64 targets: no check below can fail)
        out = _fast.nll_loss(input, target, reduction, ignore_index)
        if out is not None:
            return out
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() >= 2 and target.dim() >= 1 and input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({target.shape[0]}).")
    if input.dim() <= 2 and target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target.dtype not in (_dtypes.int64, _dtypes.uint8):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           f"{target.dtype.cname}")
    if input.dim() >= 2 and input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({target.shape[0]}).")
    if input.dim() == 3 or input.dim() > 4:
        # PyTorch's nll_loss_nd: (N, C, d...) viewed as (N, C, 1, -1) for its 2-D kernel
        n, c = input.shape[0], input.shape[1]
        out = _ops()["nll_loss"](input.contiguous().view(n, c, 1, -1),
                                 target.contiguous().view(n, 1, -1), weight, reduction,
                                 ignore_index)
        return out.view((n,) + tuple(input.shape[2:])) if reduction == "none" else out
    return _ops()["nll_loss"](input, target, weight, reduction, ignore_index)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average=None, ignore_index: int = -100, reduce=None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross entropy of logits ``input`` ((N, C) or (N, C, d...)) against class indices
    (``log_softmax`` then ``nll_loss``: gradient ``(softmax - one_hot)/N``) or class
    probabilities (same shape as input); ``label_smoothing`` mixes in the uniform
    distribution."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    if weight is None and label_smoothing == 0 and isinstance(input, Tensor) and \
            len(input._shape) == 2 and isinstance(target, Tensor) and \
            target._dtype is _dtypes.int64 and len(target._shape) == 1:
        # (class indices for (N, C) logits: log_softmax then nll_loss, directly)
        logp = _fast.log_softmax(input, 1)
        if logp is not None:
            out = _fast.nll_loss(logp, target, reduction, ignore_index)
            return out if out is not None else \
                nll_loss(logp, target, None, None, ignore_index, None, reduction)
    cdim = 1 if input.dim() >= 2 else 0
    logp = _fast.log_softmax(input, cdim)
    if logp is None:
        logp = input.log_softmax(cdim)
    c = input.shape[cdim]
    if target.shape == input.shape and target.dtype.is_floating_point:  # class probabilities
        t = target
        if label_smoothing > 0:
            t = t * (1 - label_smoothing) + label_smoothing / c
        w = 1 if weight is None else weight.reshape((-1,) + (1,) * (input.dim() - cdim - 1))
        # PyTorch negates after reducing (NegBackward0 for 'none' and 'sum').
        # Note: PyTorch's 'mean' divides in C++ by a Scalar (DivBackward1); a Python division
        # records DivBackward0 here (the same values and gradients).
        if reduction == "none":
            return -(logp * t * w).sum(cdim)
        if reduction == "sum":
            return -(logp * t * w).sum()
        return -(logp * t * w).sum() / (input.numel() // c)
    if input.dim() == 1 and label_smoothing > 0:  # (unbatched: one sample)
        return cross_entropy(input.unsqueeze(0), target.unsqueeze(0), weight, None,
                             ignore_index, None, reduction, label_smoothing).squeeze(0) \
            if reduction == "none" else \
            cross_entropy(input.unsqueeze(0), target.unsqueeze(0), weight, None, ignore_index,
                          None, reduction, label_smoothing)
    nll = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if label_smoothing <= 0:
        return nll
    w = 1 if weight is None else weight.reshape((-1,) + (1,) * (input.dim() - 2))
    smooth = -(logp * w).sum(1)
    valid = (target != ignore_index)
    smooth = smooth * valid.to(smooth.dtype)
    if reduction == "mean":
        if weight is None:
            smooth = smooth.sum() / valid.sum()
        else:
            denom = weight[target.clamp(min=0) * valid.long()] * valid.to(weight.dtype)
            smooth = smooth.sum() / denom.sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / c)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``-(t log x + (1 - t) log(1 - x))`` for probabilities ``x`` (logs clamped at -100;
    ``BinaryCrossEntropyBackward0``)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({input.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    if _has_values(input) and (bool((input < 0).any()) or bool((input > 1).any())):
        raise RuntimeError("all elements of input should be between 0 and 1")
    return _ops()["binary_cross_entropy"](input, target, weight, reduction)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None, size_average=None,
                                     reduce=None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """``binary_cross_entropy(sigmoid(x), t)`` computed stably from logits; ``pos_weight``
    weighs the positive term (``BinaryCrossEntropyWithLogitsBackward0``)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    return _ops()["binary_cross_entropy_with_logits"](input, target, weight, pos_weight,
                                                      reduction)


def kl_div(input: Tensor, target: Tensor, size_average=None, reduce=None,
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    """``target * (log target - input)`` with ``input`` log-probabilities."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", UserWarning, stacklevel=2)
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = tv.xlogy(target, target) - target * input
    if reduction == "batchmean":
        return loss.sum() / input.shape[0] if input.dim() else loss.sum()
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, size_average=None,
                          reduce=None, reduction: str = "mean") -> Tensor:
    """``1 - cos`` for target 1, ``max(0, cos - margin)`` for target -1."""
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    reduction = _legacy_reduction(size_average, reduce, reduction)
    from ..autograd._formulas import _rsub_cpp, _sadd, _ssub
    # (PyTorch's ATen composition, node for node)
    d = target.dim()
    prod_sum = (input1 * input2).sum(d)
    mag1 = _sadd((input1 * input1).sum(d), 1e-12)
    mag2 = _sadd((input2 * input2).sum(d), 1e-12)
    cos = prod_sum / (mag1 * mag2).sqrt_()
    zeros = tv.zeros_like(cos)
    loss = tv.where(target == 1, _rsub_cpp(1, cos), zeros) + \
        tv.where(target == -1, _ssub(cos, margin).clamp_min_(0), zeros)
    return _reduce(loss, reduction)


def margin_ranking_loss(input1, input2, target, margin: float = 0.0, size_average=None,
                        reduce=None, reduction: str = "mean") -> Tensor:
    """``max(0, -target * (x1 - x2) + margin)``."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    from ..autograd._formulas import _sadd
    return _reduce(_sadd(-target * (input1 - input2), margin).clamp_min_(0), reduction)


def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    """``x`` for target 1, ``max(0, margin - x)`` for target -1."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    from ..autograd._formulas import _rsub_cpp
    # (PyTorch's: the margin term where target != 1, the input where target != -1)
    zeros = tv.zeros_like(input)
    loss = tv.where(target != 1, _rsub_cpp(margin, input).clamp_min_(0), zeros) + \
        tv.where(target != -1, input, zeros)
    return _reduce(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-target * x))``."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    return _ops()["soft_margin_loss"](input, target, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """Poisson negative log likelihood."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    loss = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:
        st = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + tv.where(target > 1, st, tv.zeros_like(st))
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """``0.5 (log var + (x - t)^2 / var)`` (+ const with ``full``)."""
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    var = var.clamp(min=eps)
    loss = 0.5 * (var.log() + (input - target).pow(2) / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """``max(d(a, p) - d(a, n) + margin, 0)``."""
    a, pdim, n = anchor.dim(), positive.dim(), negative.dim()
    if not a == pdim == n:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {a}D, positive {pdim}D, "
                           f"and negative {n}D inputs")
    reduction = _legacy_reduction(size_average, reduce, reduction)
    dp = pairwise_distance(anchor, positive, p, eps)
    dn = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dn = tv.minimum(dn, pairwise_distance(positive, negative, p, eps))
    from ..autograd._formulas import _sadd
    return _reduce((_sadd(dp, margin) - dn).clamp_min(0), reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """Multi-class hinge loss."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    return _ops()["multi_margin_loss"](input, target, p, margin, weight, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """Mean over classes of the binary cross entropy with logits."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(-1) / input.shape[-1]
    return _reduce(loss, reduction)


# ---------------------------------------------------------------- attention
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(Q K^T * scale + mask) V`` (``scale`` defaults to ``1/sqrt(E)``); a bool
    mask keeps the True positions; ``is_causal`` masks the future."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    L, S = query.shape[-2], key.shape[-2]
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = query @ key.transpose(-2, -1) * scale
    if is_causal:
        causal = tv.ones(L, S, dtype=tv.bool, device=query.device).tril()
        scores = scores.masked_fill(~causal, float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype is _dtypes.bool:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    attn = scores.softmax(-1)
    if dropout_p > 0:
        attn = dropout(attn, dropout_p)
    return attn @ value


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """The multi-head attention of ``nn.MultiheadAttention`` (inputs (L, N, E))."""
    L, N, E = query.shape
    if E != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {E}")
    S = key.shape[0]
    h = num_heads
    hd = E // h
    if use_separate_proj_weight:
        wq, wk, wv = q_proj_weight, k_proj_weight, v_proj_weight
    else:
        wq, wk, wv = in_proj_weight.chunk(3)
    bq = bk = bv = None
    if in_proj_bias is not None:
        bq, bk, bv = in_proj_bias.chunk(3)
    q = linear(query, wq, bq)
    k = linear(key, wk, bk)
    v = linear(value, wv, bv)
    if bias_k is not None:
        k = tv.cat([k, bias_k.repeat(1, N, 1)])
        v = tv.cat([v, bias_v.repeat(1, N, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
        S += 1
    q = q.reshape(L, N * h, hd).transpose(0, 1)
    k = k.reshape(S, N * h, hd).transpose(0, 1)
    v = v.reshape(S, N * h, hd).transpose(0, 1)
    if add_zero_attn:
        k = tv.cat([k, tv.zeros(N * h, 1, hd, dtype=k.dtype, device=k.device)], 1)
        v = tv.cat([v, tv.zeros(N * h, 1, hd, dtype=v.dtype, device=v.device)], 1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
        S += 1
    scores = q @ k.transpose(1, 2) / math.sqrt(hd)
    if attn_mask is not None:
        m = attn_mask if attn_mask.dim() == 3 else attn_mask.unsqueeze(0)
        if m.dtype is _dtypes.bool:
            scores = scores.masked_fill(m, float("-inf"))
        else:
            scores = scores + m
    if is_causal and attn_mask is None:
        causal = tv.ones(L, S, dtype=tv.bool, device=q.device).triu(1)
        scores = scores.masked_fill(causal, float("-inf"))
    if key_padding_mask is not None:
        kpm = key_padding_mask.reshape(N, 1, 1, S).expand(N, h, 1, S).reshape(N * h, 1, S)
        if kpm.dtype is _dtypes.bool:
            scores = scores.masked_fill(kpm, float("-inf"))
        else:
            scores = scores + kpm
    attn = scores.softmax(-1)
    if dropout_p > 0 and training:
        attn = dropout(attn, dropout_p)
    out = (attn @ v).transpose(0, 1).reshape(L, N, E)
    out = linear(out, out_proj_weight, out_proj_bias)
    if not need_weights:
        return out, None
    w = attn.reshape(N, h, L, S)
    return out, (w.mean(1) if average_attn_weights else w)


# ---------------------------------------------------------------- the ops with their own nodes
class _Ops:
    """The nn ops of ``_formulas`` by name, through their current (recording once autograd
    is armed) spellings."""

    def __getitem__(self, name: str):
        return _dispatch.installed(_F)["_" + name]


_OPS = _Ops()


def _ops() -> _Ops:
    return _OPS


from . import _formulas  # noqa: E402,F401  (declares the ops above)

_dispatch.install()
