"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` (and their cells), PyTorch's parameter
names (``weight_ih_l0``, ``weight_hh_l0_reverse`` ...), gate order and initialisation, with
``batch_first``, ``num_layers``, ``bidirectional`` and ``dropout`` between layers.

The time loop is plain Python over tensor ops, so autograd records every step: a lesson can
draw the unrolled graph.
"""
from __future__ import annotations

import math

import tensorviz as tv

from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _cell(mode: str, x, h, c, w_ih, w_hh, b_ih, b_hh):
    """One time step of ``mode``: returns (h', c')."""
    gi = F.linear(x, w_ih, b_ih)
    gh = F.linear(h, w_hh, b_hh)
    if mode == "LSTM":
        i, f, g, o = (gi + gh).chunk(4, -1)
        c = f.sigmoid() * c + i.sigmoid() * g.tanh()
        return o.sigmoid() * c.tanh(), c
    if mode == "GRU":
        ir, iz, in_ = gi.chunk(3, -1)
        hr, hz, hn = gh.chunk(3, -1)
        r = (ir + hr).sigmoid()
        z = (iz + hz).sigmoid()
        n = (in_ + r * hn).tanh()
        return (h - n) * z + n, None  # (PyTorch's order of operations: its graph)
    pre = gi + gh
    return (pre.tanh() if mode == "RNN_TANH" else pre.relu()), None


class RNNBase(Module):
    """The shared machinery of RNN, LSTM and GRU."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1 or \
                isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            import warnings
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", UserWarning,
                          stacklevel=3)
        if not isinstance(hidden_size, int) or hidden_size <= 0:
            raise ValueError("hidden_size must be an integer greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be an integer greater than zero")
        self.mode = mode
        self.input_size, self.hidden_size = input_size, hidden_size
        self.num_layers, self.bias = num_layers, bias
        self.batch_first, self.dropout = batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        real_hidden = proj_size if proj_size > 0 else hidden_size
        gates = _GATES[mode] * hidden_size
        dirs = 2 if bidirectional else 1
        self._flat_weights_names = []
        for layer in range(num_layers):
            for d in range(dirs):
                in_size = input_size if layer == 0 else real_hidden * dirs
                suffix = f"_l{layer}" + ("_reverse" if d == 1 else "")
                names = [f"weight_ih{suffix}", f"weight_hh{suffix}"]
                setattr(self, names[0], Parameter(tv.empty((gates, in_size), device=device,
                                                           dtype=dtype)))
                setattr(self, names[1], Parameter(tv.empty((gates, real_hidden),
                                                           device=device, dtype=dtype)))
                if bias:
                    names += [f"bias_ih{suffix}", f"bias_hh{suffix}"]
                    setattr(self, names[2], Parameter(tv.empty(gates, device=device,
                                                               dtype=dtype)))
                    setattr(self, names[3], Parameter(tv.empty(gates, device=device,
                                                               dtype=dtype)))
                if proj_size > 0:
                    names.append(f"weight_hr{suffix}")
                    setattr(self, names[-1], Parameter(tv.empty((proj_size, hidden_size),
                                                                device=device, dtype=dtype)))
                self._flat_weights_names.extend(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias U(-1/sqrt(hidden), 1/sqrt(hidden)), as PyTorch."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for w in self.parameters():
            init.uniform_(w, -stdv, stdv)

    @property
    def all_weights(self) -> list:
        return [getattr(self, n) for n in self._flat_weights_names]

    def _layer_params(self, layer: int, d: int):
        suffix = f"_l{layer}" + ("_reverse" if d == 1 else "")
        get = lambda n: getattr(self, n + suffix, None)  # noqa: E731
        return (get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh"),
                get("weight_hr"))

    def forward(self, input: Tensor, hx=None):
        """(output, h_n) -- (output, (h_n, c_n)) for LSTM."""
        batched = input.dim() == 3
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got "
                             f"{input.dim()}D tensor instead")
        x = input if batched else input.unsqueeze(1)
        if batched and self.batch_first:
            x = x.transpose(0, 1)
        seq, n = x.shape[0], x.shape[1]
        dirs = 2 if self.bidirectional else 1
        is_lstm = self.mode == "LSTM"
        if hx is None:
            zeros = tv.zeros(self.num_layers * dirs, n, self.hidden_size, dtype=x.dtype,
                             device=x.device)
            h0, c0 = zeros, (zeros if is_lstm else None)
            if self.proj_size > 0:
                h0 = tv.zeros(self.num_layers * dirs, n, self.proj_size, dtype=x.dtype,
                              device=x.device)
        elif is_lstm:
            h0, c0 = hx
            if not batched:
                h0, c0 = h0.unsqueeze(1), c0.unsqueeze(1)
        else:
            h0, c0 = (hx if batched else hx.unsqueeze(1)), None
        if x.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {x.shape[-1]}")
        expect = (self.num_layers * dirs, n, self.proj_size or self.hidden_size)
        if tuple(h0.shape) != expect:
            raise RuntimeError(f"Expected hidden size {expect}, got {list(h0.shape)}")
        if is_lstm:
            expect_c = (self.num_layers * dirs, n, self.hidden_size)
            if tuple(c0.shape) != expect_c:
                raise RuntimeError(f"Expected hidden size {expect_c}, got {list(c0.shape)}")
        hs, cs = [], []
        layer_in = x
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                w_ih, w_hh, b_ih, b_hh, w_hr = self._layer_params(layer, d)
                k = layer * dirs + d
                h, c = h0[k], (c0[k] if is_lstm else None)
                steps = range(seq) if d == 0 else range(seq - 1, -1, -1)
                ys = [None] * seq
                for t in steps:
                    h, c = _cell(self.mode, layer_in[t], h, c, w_ih, w_hh, b_ih, b_hh)
                    if w_hr is not None:
                        h = F.linear(h, w_hr)
                    ys[t] = h
                outs.append(tv.stack(ys) if seq else layer_in.new_zeros(
                    0, n, self.proj_size or self.hidden_size))
                hs.append(h)
                if is_lstm:
                    cs.append(c)
            layer_in = outs[0] if dirs == 1 else tv.cat(outs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_in = F.dropout(layer_in, self.dropout, True)
        output = layer_in
        h_n = tv.stack(hs)
        if batched and self.batch_first:  # (PyTorch's RNN/GRU kernels transpose in place)
            output = output.transpose(0, 1) if is_lstm else output.transpose_(0, 1)
        if not batched:
            output = output.squeeze(1)
            h_n = h_n.squeeze(1)
        if is_lstm:
            c_n = tv.stack(cs)
            if not batched:
                c_n = c_n.squeeze(1)
            return output, (h_n, c_n)
        return output, h_n

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    """Elman RNN: ``h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)`` (or relu)."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device=None,
                 dtype=None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory (gates i, f, g, o as PyTorch orders them)."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device=device, dtype=dtype)


class GRU(RNNBase):
    """Gated recurrent unit (gates r, z, n as PyTorch orders them)."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, device=None, dtype=None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, device=device, dtype=dtype)


class _CellBase(Module):
    mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        gates = _GATES[self.mode] * hidden_size
        self.weight_ih = Parameter(tv.empty((gates, input_size), device=device, dtype=dtype))
        self.weight_hh = Parameter(tv.empty((gates, hidden_size), device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(tv.empty(gates, device=device, dtype=dtype))
            self.bias_hh = Parameter(tv.empty(gates, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        stdv = 1.0 / math.sqrt(hidden_size)
        for w in self.parameters():
            init.uniform_(w, -stdv, stdv)

    def _batch(self, input: Tensor, hx):
        """PyTorch's unbatched handling: a 1-D input (and state) gets a batch dim of one,
        squeezed off the result (so the output's node is ``SqueezeBackward1``)."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got "
                             f"{input.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
            if hx is not None:
                hx = tuple(h.unsqueeze(0) for h in hx) if isinstance(hx, tuple) \
                    else hx.unsqueeze(0)
        if hx is None:
            z = tv.zeros(input.shape[0], self.hidden_size, dtype=input.dtype,
                         device=input.device)
            hx = (z, z) if self.mode == "LSTM" else z
        return input, hx, batched

    def forward(self, input: Tensor, hx=None) -> Tensor:
        input, hx, batched = self._batch(input, hx)
        h = _cell(self.mode, input, hx, None, self.weight_ih, self.weight_hh, self.bias_ih,
                  self.bias_hh)[0]
        return h if batched else h.squeeze(0)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if not self.bias:
            s += ", bias=False"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCell(_CellBase):
    """One step of an Elman RNN."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None) -> None:
        self.mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(input_size, hidden_size, bias, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity


class LSTMCell(_CellBase):
    """One step of an LSTM: returns (h', c')."""

    mode = "LSTM"

    def forward(self, input: Tensor, hx=None):
        input, hx, batched = self._batch(input, hx)
        h, c = _cell("LSTM", input, hx[0], hx[1], self.weight_ih, self.weight_hh,
                     self.bias_ih, self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(_CellBase):
    """One step of a GRU."""

    mode = "GRU"
