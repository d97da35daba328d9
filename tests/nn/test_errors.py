"""Layers refuse bad input with PyTorch's exception type and message (modulo the package
name): wrong shapes, dims, dtypes and constructor arguments."""
from __future__ import annotations

import pytest

import tensorviz
from nn_harness import same_error

torch = pytest.importorskip("torch")

# (description, build-and-call taking the library)
CASES = [
    ("linear shapes", lambda L: L.nn.Linear(5, 3)(L.ones(4, 4))),
    ("linear dtype", lambda L: L.nn.Linear(2, 3)(L.ones(4, 2, dtype=L.float64))),
    ("linear int input", lambda L: L.nn.Linear(2, 3)(L.ones(4, 2, dtype=L.long))),
    ("bilinear shapes", lambda L: L.nn.Bilinear(2, 3, 4)(L.ones(5, 2), L.ones(4, 3))),
    ("conv2d dims", lambda L: L.nn.Conv2d(1, 2, 3)(L.ones(2, 1, 1, 5, 5))),
    ("conv2d channels", lambda L: L.nn.Conv2d(3, 2, 3)(L.ones(1, 2, 5, 5))),
    ("conv1d too small", lambda L: L.nn.Conv1d(1, 2, 5)(L.ones(1, 1, 3))),
    ("conv groups", lambda L: L.nn.Conv2d(3, 2, 3, groups=2)),
    ("conv groups 0", lambda L: L.nn.Conv2d(2, 2, 3, groups=0)),
    ("batchnorm dims", lambda L: L.nn.BatchNorm2d(3)(L.ones(2, 3, 4))),
    ("batchnorm channels", lambda L: L.nn.BatchNorm1d(3)(L.ones(4, 2))),
    ("batchnorm one value", lambda L: L.nn.BatchNorm1d(3)(L.ones(1, 3))),
    ("layernorm shape", lambda L: L.nn.LayerNorm(4)(L.ones(2, 3))),
    ("groupnorm divisibility", lambda L: L.nn.GroupNorm(3, 4)),
    ("groupnorm channels", lambda L: L.nn.functional.group_norm(L.ones(2, 5, 3), 2)),
    ("instancenorm dims", lambda L: L.nn.InstanceNorm2d(3)(L.ones(2, 3))),
    ("instancenorm one value", lambda L: L.nn.InstanceNorm1d(3)(L.ones(2, 3, 1))),
    ("embedding range", lambda L: L.nn.Embedding(4, 2)(L.tensor([1, 4]))),
    ("embedding negative", lambda L: L.nn.Embedding(4, 2)(L.tensor([-1]))),
    ("embedding float", lambda L: L.nn.Embedding(4, 2)(L.tensor([1.0]))),
    ("embedding padding_idx", lambda L: L.nn.Embedding(4, 2, padding_idx=-5)),
    ("dropout p", lambda L: L.nn.Dropout(1.5)),
    ("dropout2d p", lambda L: L.nn.functional.dropout2d(L.ones(2, 2, 2), -0.5)),
    ("rnn dims", lambda L: L.nn.RNN(3, 4)(L.ones(2, 3, 3, 3))),
    ("rnn input size", lambda L: L.nn.RNN(3, 4)(L.ones(5, 2, 2))),
    ("rnn hidden shape", lambda L: L.nn.GRU(3, 4)(L.ones(5, 2, 3), L.ones(1, 3, 4))),
    ("rnn nonlinearity", lambda L: L.nn.RNN(3, 4, nonlinearity="gelu")),
    ("rnn dropout", lambda L: L.nn.LSTM(3, 4, dropout=2.0)),
    ("lstm proj", lambda L: L.nn.LSTM(3, 4, proj_size=4)),
    ("cell dims", lambda L: L.nn.GRUCell(3, 4)(L.ones(2, 2, 3))),
    ("mha divisibility", lambda L: L.nn.MultiheadAttention(6, 4)),
    ("mha query dims", lambda L: L.nn.MultiheadAttention(4, 2)(L.ones(2, 3, 5), L.ones(2, 3, 5),
                                                               L.ones(2, 3, 5))),
    ("softmax dim", lambda L: L.nn.Softmax(2)(L.ones(2, 3))),
    ("glu odd", lambda L: L.nn.GLU()(L.ones(2, 3))),
    ("flatten dims", lambda L: L.nn.Flatten(2, 1)(L.ones(2, 3, 4))),
    ("unflatten size", lambda L: L.nn.Unflatten(1, (2, 2))(L.ones(2, 5))),
    ("maxpool pad", lambda L: L.nn.MaxPool2d(2, padding=2)(L.ones(1, 1, 5, 5))),
    ("avgpool pad", lambda L: L.nn.AvgPool2d(2, padding=2)(L.ones(1, 1, 5, 5))),
    ("maxpool too small", lambda L: L.nn.MaxPool2d(3)(L.ones(1, 1, 2, 2))),
    ("pixel shuffle channels", lambda L: L.nn.PixelShuffle(2)(L.ones(1, 3, 2, 2))),
    ("upsample dims", lambda L: L.nn.Upsample(scale_factor=2, mode="bilinear")(L.ones(1, 3))),
    ("one_hot classes", lambda L: L.nn.functional.one_hot(L.tensor([3]), 2)),
    ("mse shapes", lambda L: L.nn.MSELoss()(L.ones(2, 3), L.ones(4, 3))),
    ("bce range", lambda L: L.nn.BCELoss()(L.full((2,), 1.5), L.ones(2))),
    ("nll target", lambda L: L.nn.NLLLoss()(L.ones(2, 3), L.tensor([0, 3]))),
    ("ce batch", lambda L: L.nn.CrossEntropyLoss()(L.ones(2, 3), L.tensor([0, 1, 2]))),
    ("kl reduction", lambda L: L.nn.KLDivLoss(reduction="avg")(L.ones(2), L.ones(2))),
    ("cosine embedding dims", lambda L: L.nn.CosineEmbeddingLoss()(L.ones(2, 3), L.ones(2, 3),
                                                                     L.ones(2, 2))),
    ("triplet dims", lambda L: L.nn.TripletMarginLoss()(L.ones(2, 3), L.ones(2, 3), L.ones(3))),
    ("gaussian var", lambda L: L.nn.GaussianNLLLoss()(L.ones(2, 3), L.ones(2, 3),
                                                      -L.ones(2, 3))),
    ("sequential index", lambda L: L.nn.Sequential(L.nn.ReLU())[2]),
    ("module list type", lambda L: L.nn.ModuleList([L.ones(1)])),
    ("parameter list", lambda L: L.nn.ParameterList([1, 2]).__getitem__(5)),
]


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_error_matches_torch(name, fn):
    same_error(lambda: fn(torch), lambda: fn(tensorviz))
