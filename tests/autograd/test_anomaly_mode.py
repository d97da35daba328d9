"""Anomaly detection against PyTorch: the NaN check's error, the forward-traceback warning,
the flags."""
from __future__ import annotations

import pytest

from ._diff import run, same

torch = pytest.importorskip("torch")
import tensorviz  # noqa: E402

CASES = {
    "nan_check": "x = torch.tensor([-1., 4.], requires_grad=True)\nwith torch.autograd.detect_anomaly():\n    y = x.sqrt()\n    y.sum().backward()",
    "no_nan_check": "x = torch.tensor([-1., 4.], requires_grad=True)\nwith torch.autograd.detect_anomaly(check_nan=False):\n    y = x.sqrt()\n    y.sum().backward()\nresult = x.grad",
    "flags": "a = torch.is_anomaly_enabled()\nwith torch.autograd.set_detect_anomaly(True):\n    b = (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())\nresult = (a, b, torch.is_anomaly_enabled())",
    "off_no_error": "x = torch.tensor([-1., 4.], requires_grad=True); x.sqrt().sum().backward(); result = x.grad",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_anomaly_as_pytorch(src):
    same(src, warnings_too=False)


def test_forward_traceback_warning():
    src = ("x = torch.tensor([-1., 4.], requires_grad=True)\n"
           "with torch.autograd.detect_anomaly():\n    y = x.sqrt()\n    y.sum().backward()")
    for lib in (torch, tensorviz):
        err, warned, _ = run(src, lib)
        assert err == ("RuntimeError", "Function 'SqrtBackward0' returned nan values in its "
                       "0th output."), lib
        assert any(m.startswith("Error detected in SqrtBackward0. Traceback of forward call "
                                "that caused the error:") for _, m in warned), warned
        assert any(m.startswith("Anomaly Detection has been enabled.") for _, m in warned)
