"""The engine and the Tensor's autograd facts, against PyTorch: leaves, ``backward`` and
``autograd.grad`` with their options and errors, ``.grad`` identity and accumulation,
retain_graph, higher-order gradients, version counters and in-place rules, grad modes.

Every case is a small program run on both libraries (``_diff.same``): the same errors
(type and message), warnings and observations.
"""
from __future__ import annotations

import pytest

from ._diff import same

pytest.importorskip("torch")

GRAPH_AND_LEAVES = {
    "factory_leaf": "x = torch.ones(2, requires_grad=True); result = (x.is_leaf, x.requires_grad, x.grad_fn)",
    "op_result": "x = torch.ones(2, requires_grad=True); y = x * 2; result = (y.is_leaf, y.requires_grad, y)",
    "no_grad_result": "x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    y = x * 2\nresult = (y.is_leaf, y.requires_grad)",
    "factory_in_no_grad": "with torch.no_grad():\n    x = torch.ones(2, requires_grad=True)\nresult = (x.is_leaf, x.requires_grad)",
    "add_inplace_nonleaf": "w = torch.ones(2, requires_grad=True); t = torch.zeros(2); t.add_(w); result = (t.is_leaf, t.requires_grad, t.grad_fn)",
    "names": "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\nresult = [x+x, x+1, x*2, 2*x, x-1, -x, x/2, x**2, x**x, x.sum(), x.sum(0), x.mean(), x@x, x.t(), x.T, x.transpose(0,1), x.mT, x.view(4), x.reshape(4), x.t().reshape(4), x[0], x[:1], x[[0,1]], x[x>2], x.max(), x.max(1)[0], x.t().clone(), x.t().contiguous(), x.unsqueeze(0), x.unsqueeze(0).squeeze(0), x[:, :1].expand(2, 3), x.double(), x.float(), x.exp(), x.log(), x.relu(), x.sigmoid(), x.tanh(), x.abs(), x.sqrt(), x.softmax(0), x.log_softmax(0), torch.cat([x, x]), torch.stack([x, x]), torch.where(x > 2, x, x*2), x.unbind()[0], x.split(1)[0], x.chunk(2)[1], x.flatten()]",
    "print_grad_fn": "x = torch.tensor([1., 2.], requires_grad=True); result = (repr(x * 2), repr(x), str(x.sum()))",
    "accumulate_grad": "x = torch.ones(2, requires_grad=True); y = (x*x + x).sum(); acc = y.grad_fn.next_functions[0][0].next_functions[1][0]; result = (acc.name(), acc.variable is x, acc.next_functions, type(acc).__name__)",
    "acc_reused": "x = torch.ones(2, requires_grad=True); a = x*2; b = x*3; result = a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0]",
    "next_none": "x = torch.ones(2, requires_grad=True); y = torch.ones(2); z = x*y; result = [(n.name() if n else None, i) for n, i in z.grad_fn.next_functions]",
    "metadata": "x = torch.ones(2, requires_grad=True); n = (x*2).grad_fn; n.metadata['k'] = 1; result = (n.metadata, n.name() == type(n).__name__)",
    "detach": "x = torch.ones(2, requires_grad=True); d = x.detach(); result = (d.requires_grad, d.is_leaf, d._version)",
    "data_alias": "x = torch.ones(2, requires_grad=True); result = (x.data is x.data, x.data.requires_grad)",
    "base_of_view": "a = torch.ones(4, requires_grad=True); v = a.view(2, 2); result = (v.is_leaf, v.grad_fn, v._base is a, v._is_view(), a._is_view())",
    "retain_grad": "x = torch.ones(2, requires_grad=True); y = x * 2; y.retain_grad(); y.sum().backward(); result = (y.grad, y.retains_grad, x.grad)",
    "retain_grad_no_rg": "result = torch.ones(2).retain_grad()",
    "nonleaf_grad_warns": "x = torch.ones(2, requires_grad=True); y = x * 2; result = y.grad",
    "numpy_requires_grad": "torch.ones(2, requires_grad=True).numpy()",
    "int_factory": "torch.ones(2, dtype=torch.int64, requires_grad=True)",
    "int_method": "torch.ones(2, dtype=torch.int64).requires_grad_()",
    "int_attribute": "t = torch.ones(2, dtype=torch.int64); t.requires_grad = True",
    "nonleaf_attribute": "x = torch.ones(2, requires_grad=True); y = x * 2; y.requires_grad = False",
    "int_result": "x = torch.ones(2, requires_grad=True); result = ((x > 0), x.argmax(), x.long())",
}

BACKWARD_AND_GRAD = {
    "first_grad_new_object": "x = torch.ones(2, requires_grad=True); g = torch.ones(2); (x*1).backward(g); result = (x.grad is g, x.grad)",
    "accumulate_same_object": "x = torch.ones(2, requires_grad=True); (x*2).sum().backward(); g = x.grad; (x*3).sum().backward(); result = (x.grad is g, x.grad)",
    "reset_grad": "x = torch.ones(2, requires_grad=True); (x*2).sum().backward(); x.grad = None; (x*3).sum().backward(); result = x.grad",
    "implicit_scalar_only": "x = torch.ones(2, requires_grad=True); (x*2).backward()",
    "seed_shape": "x = torch.ones(3, requires_grad=True); (x*2).backward(torch.ones(2))",
    "seed_0d_vs_1": "x = torch.ones(3, requires_grad=True); (x*2).sum().backward(torch.ones(1))",
    "no_graph": "torch.ones(2).sum().backward()",
    "second_time": "x = torch.ones(2, requires_grad=True); y = (x.exp()).sum(); y.backward(); y.backward()",
    "second_time_retain": "x = torch.ones(2, requires_grad=True); y = (x.exp()).sum(); y.backward(retain_graph=True); y.backward(); result = x.grad",
    "nothing_saved_twice": "a = torch.ones(2, requires_grad=True); y = (a + 1).sum(); y.backward(); y.backward(); result = a.grad",
    "saved_tensors": "x = torch.ones(2, requires_grad=True); y = torch.full((2,), 3.); m = x*y; s = x.sigmoid(); result = (m.grad_fn._saved_other, s.grad_fn._saved_result)",
    "saved_freed_access": "x = torch.ones(2, requires_grad=True); s = x.exp(); s.sum().backward(); s.grad_fn._saved_result",
    "grad_leaves_grad_alone": "x = torch.ones(2, requires_grad=True); g = torch.autograd.grad((x*2).sum(), x); result = (g, x.grad)",
    "grad_unused": "x = torch.ones(2, requires_grad=True); y = torch.ones(2, requires_grad=True); torch.autograd.grad((x*2).sum(), [x, y])",
    "grad_allow_unused": "x = torch.ones(2, requires_grad=True); y = torch.ones(2, requires_grad=True); result = torch.autograd.grad((x*2).sum(), [x, y], allow_unused=True)",
    "grad_materialize": "x = torch.ones(2, requires_grad=True); y = torch.ones(2, requires_grad=True); result = torch.autograd.grad((x*2).sum(), [x, y], materialize_grads=True)",
    "grad_nonleaf_input": "x = torch.ones(2, requires_grad=True); h = x * 3; result = torch.autograd.grad((h*h).sum(), h)",
    "grad_outputs": "x = torch.ones(2, requires_grad=True); result = torch.autograd.grad(x*2, x, torch.tensor([1., 5.]))",
    "backward_inputs": "a = torch.ones(2, requires_grad=True); b = torch.ones(2, requires_grad=True); (a*b).sum().backward(inputs=[a]); result = (a.grad, b.grad)",
    "create_graph_third": "x = torch.tensor(2., requires_grad=True); (g,) = torch.autograd.grad(x**3, x, create_graph=True); (h,) = torch.autograd.grad(g, x, create_graph=True); (k,) = torch.autograd.grad(h, x); result = (g, h, k)",
    "create_graph_backward_warns": "x = torch.tensor(2., requires_grad=True); (x**3).backward(create_graph=True); result = x.grad",
    "several_outputs": "x = torch.ones(2, requires_grad=True); torch.autograd.backward([x*2, (x*3).sum()], [torch.ones(2), None]); result = x.grad",
    "engine_order": "x = torch.ones(1, requires_grad=True); order = []\na = x * 2; b = x * 3\na.register_hook(lambda g: order.append('a')); b.register_hook(lambda g: order.append('b'))\n(a + b).sum().backward(); result = order",
    "broadcast_reduce": "x = torch.ones(3, 1, requires_grad=True); y = torch.ones(4, requires_grad=True); (x*y).sum().backward(); result = (x.grad, y.grad)",
    "dtype_cast_back": "x = torch.ones(2, dtype=torch.float32, requires_grad=True); (x.double()*2).sum().backward(); result = x.grad",
    "complex_grad": "z = torch.tensor([1+2j, 3-1j], requires_grad=True); (z * z.conj()).real.sum().backward(); result = z.grad",
    "complex_abs": "z = torch.tensor([3+4j], requires_grad=True); z.abs().sum().backward(); result = z.grad",
    "real_output_implicit": "z = torch.tensor([1+2j], requires_grad=True); (z*2).sum().backward()",
}

VERSIONS_AND_INPLACE = {
    "versions": "t = torch.zeros(3); v = t[1:]; a = [t._version]; t.add_(1); a.append(t._version); t[0] = 2.; a.append((t._version, v._version)); t += 1; a.append(t._version); torch.add(t, 1, out=t); t.zero_(); t.copy_(torch.ones(3)); a.append(t._version); d = t.detach(); d.add_(1); a.append((t._version, d._version)); a.append(t.data._version); a.append(t.clone()._version); result = a",
    "requires_grad_no_bump": "t = torch.zeros(2); t.requires_grad_(); result = t._version",
    "t_and_resize": "t = torch.zeros(2, 2); t.t_(); a = t._version; t.resize_(4); result = (a, t._version)",
    "stale_saved": "a = torch.ones(3, requires_grad=True); b = a.exp(); b.add_(1); b.sum().backward()",
    "stale_saved_input": "a = torch.ones(3, requires_grad=True); x = torch.ones(3); y = a * x; x.add_(1); y.sum().backward()",
    "stale_saved_mul_names": "a = torch.ones(3, requires_grad=True); c = a * 2; d = c * c; c.mul_(2); d.sum().backward()",
    "leaf_inplace": "a = torch.ones(3, requires_grad=True); a.add_(1)",
    "leaf_view_inplace": "a = torch.ones(3, requires_grad=True); a[:2].mul_(2)",
    "leaf_setitem": "a = torch.ones(3, requires_grad=True); a[0] = 5.",
    "leaf_no_grad_inplace": "a = torch.ones(3, requires_grad=True)\nwith torch.no_grad():\n    a.add_(1)\nresult = (a, a._version)",
    "rebase_nonleaf": "a = torch.ones(3, requires_grad=True); b = a * 2; b.add_(1); b.mul_(3); b.sum().backward(); result = (b.grad_fn, a.grad)",
    "copyslices": "a = torch.tensor([1., 2., 3., 4.], requires_grad=True); b = a * 1; v = b[:2]; v.mul_(10)\nresult = (b.grad_fn.name(), [(n.name() if n else None, i) for n, i in b.grad_fn.next_functions], v.grad_fn.name())\nb.sum().backward(); result = result + (a.grad,)",
    "view_of_leaf": "a = torch.ones(4, requires_grad=True); v = a.view(2, 2); result = (v.is_leaf, v.grad_fn.name(), v._base is a)",
    "unbind_inplace": "x = torch.ones(2, 2, requires_grad=True) * 1; x.unbind()[0].mul_(2)",
    "split_inplace": "x = torch.ones(4, requires_grad=True) * 1; x.split(2)[1].mul_(2)",
    "no_grad_view_inplace": "x = torch.ones(4, requires_grad=True) * 1\nwith torch.no_grad():\n    v = x[:2]\nv.mul_(2)",
    "data_zero_silent": "a = torch.ones(3, requires_grad=True); out = a.sigmoid(); out.data.zero_(); out.sum().backward(); result = a.grad",
    "detach_zero_raises": "a = torch.ones(3, requires_grad=True); out = a.sigmoid(); out.detach().zero_(); out.sum().backward()",
    "moved_into_interior": "a = torch.ones(3, requires_grad=True); b = a * 2; a.requires_grad_(False); w = torch.ones(3, requires_grad=True); a.mul_(w); b.sum().backward(); result = (w.grad,)",
    "inplace_in_graph_twice": "x = torch.ones(3, requires_grad=True); y = x.clone(); y[1] = 5.; y.mul_(x); y.sum().backward(); result = x.grad",
    "setitem_advanced": "x = torch.ones(4, requires_grad=True); y = x * 1; y[[0, 2]] = torch.tensor([3., 4.]); y.sum().backward(); result = (y.grad_fn, x.grad)",
    "setitem_tensor_value": "x = torch.ones(4, requires_grad=True); w = torch.tensor(2., requires_grad=True); y = x * 1; y[1:3] = w; (y * torch.arange(4.)).sum().backward(); result = (x.grad, w.grad)",
}

FLAGS_AND_MODES = {
    "inference_mode": "x = torch.ones(2, requires_grad=True)\nwith torch.inference_mode():\n    i = x * 2\n    with torch.enable_grad():\n        j = x * 2\nresult = (i.is_inference(), i.requires_grad, j.requires_grad, torch.is_grad_enabled())",
    "inference_version": "with torch.inference_mode():\n    i = torch.ones(2)\ni._version",
    "inference_inplace": "with torch.inference_mode():\n    i = torch.ones(2)\ni.add_(1)",
    "inference_saved": "with torch.inference_mode():\n    i = torch.ones(2)\nx = torch.ones(2, requires_grad=True); i * x",
    "inference_op_version": "with torch.inference_mode():\n    i = torch.ones(2) * 2\ni._version",
    "inference_op_inplace": "with torch.inference_mode():\n    i = torch.ones(2) * 2\ni.add_(1)",
    "inference_op_saved": "with torch.inference_mode():\n    i = torch.ones(2) * 2\nx = torch.ones(2, requires_grad=True); i * x",
    "inference_op_view_of_normal": "n = torch.ones(2)\nwith torch.inference_mode():\n    v = n[:1]\n    w = n + 1\nresult = (v.is_inference(), w.is_inference(), n._version)",
    "inference_add_ok": "with torch.inference_mode():\n    i = torch.ones(2)\nx = torch.ones(2, requires_grad=True); result = (i + x)",
    "set_grad_enabled": "x = torch.ones(2, requires_grad=True)\nwith torch.set_grad_enabled(False):\n    y = x * 2\ntorch.set_grad_enabled(True)\nresult = (y.requires_grad, (x*2).requires_grad)",
    "no_grad_decorator": "x = torch.ones(2, requires_grad=True)\n@torch.no_grad()\ndef f(t):\n    return t * 2\nresult = f(x).requires_grad",
    "enable_grad_inside_no_grad": "x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    with torch.enable_grad():\n        y = x * 2\nresult = y.requires_grad",
    "out_with_grad": "x = torch.ones(2, requires_grad=True); o = torch.empty(2); torch.exp(x, out=o)",
}

HOOKS = {
    "tensor_hook_replaces": "x = torch.ones(2, requires_grad=True); h = x.register_hook(lambda g: g * 10); (x*2).sum().backward(); a = x.grad.clone(); h.remove(); x.grad = None; (x*2).sum().backward(); result = (a, x.grad)",
    "hook_nonleaf": "x = torch.ones(2, requires_grad=True); y = x * 2; seen = []; y.register_hook(lambda g: seen.append(g.clone())); y.sum().backward(); result = (seen, x.grad)",
    "hook_no_rg": "torch.ones(2).register_hook(lambda g: g)",
    "post_accumulate": "x = torch.ones(2, requires_grad=True); seen = []; x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone())); (x*3).sum().backward(); result = seen",
    "node_hooks": "x = torch.ones(2, requires_grad=True); y = x * 2; seen = []\ny.grad_fn.register_prehook(lambda go: seen.append(('pre', go)))\ny.grad_fn.register_hook(lambda gi, go: seen.append(('post', gi, go)))\ny.sum().backward(); result = seen",
    "node_prehook_replaces": "x = torch.ones(2, requires_grad=True); y = x * 2; y.grad_fn.register_prehook(lambda go: (go[0] * 0 + 7,)); y.sum().backward(); result = x.grad",
    "saved_tensors_hooks": "x = torch.ones(2, requires_grad=True); log = []\nwith torch.autograd.graph.saved_tensors_hooks(lambda t: (log.append('pack'), t)[1], lambda t: (log.append('unpack'), t)[1]):\n    y = x.exp()\ny.sum().backward(); result = (log, x.grad)",
}


# Programs that tensorviz does not yet run as PyTorch does (none at present): each stays
# listed here, as a strict xfail, until it passes.
_GAPS: set = set()


def _params(table):
    return pytest.mark.parametrize("src", [
        pytest.param(v, marks=pytest.mark.xfail(strict=True, reason="inference tensors"))
        if k in _GAPS else v for k, v in table.items()], ids=list(table))


@_params(GRAPH_AND_LEAVES)
def test_graph_and_leaves(src):
    same(src)


@_params(BACKWARD_AND_GRAD)
def test_backward_and_grad(src):
    same(src)


@_params(VERSIONS_AND_INPLACE)
def test_versions_and_inplace(src):
    same(src)


@_params(FLAGS_AND_MODES)
def test_flags_and_modes(src):
    same(src)


@_params(HOOKS)
def test_hooks(src):
    same(src)
