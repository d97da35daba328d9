"""libstdc++'s ``std::sort``, step by step, for the orders PyTorch's CPU kernels leave where
their comparison does not order everything (NaN, equal keys).

``std::sort`` is an introsort: median-of-three quicksort down to runs of 16, a heapsort past
a depth of 2 log2(n), then one insertion sort. It is not stable, and with a comparison that a
NaN defeats (``a < b``) its result is not even sorted; PyTorch's ``sort(stable=False)``,
``unique`` and ``mode`` give exactly what it leaves::

    >>> x = [float('nan'), 2.0, 1.0]
    >>> std_sort(3, lambda i, j: x[i] < x[j])   # (not [2, 1, 0]: NaN stays first)
    [0, 2, 1]
"""
from __future__ import annotations

from typing import Callable

_THRESHOLD = 16  # (libstdc++'s _S_threshold)


def std_sort(n: int, less: Callable[[int, int], bool]) -> list:
    """The permutation ``std::sort`` leaves positions ``0 .. n-1`` in, comparing two
    positions (of the original sequence) with ``less``."""
    a = list(range(n))

    def linear_insert(last: int) -> None:  # (__unguarded_linear_insert)
        v = a[last]
        nxt = last - 1
        while less(v, a[nxt]):
            a[last] = a[nxt]
            last = nxt
            nxt -= 1
        a[last] = v

    def insertion(first: int, last: int) -> None:  # (__insertion_sort)
        for i in range(first + 1, last):
            v = a[i]
            if less(v, a[first]):
                a[first + 1:i + 1] = a[first:i]
                a[first] = v
            else:
                linear_insert(i)

    def adjust(first: int, hole: int, length: int, value: int) -> None:  # (__adjust_heap)
        top = second = hole
        while second < (length - 1) // 2:
            second = 2 * (second + 1)
            if less(a[first + second], a[first + second - 1]):
                second -= 1
            a[first + hole] = a[first + second]
            hole = second
        if length % 2 == 0 and second == (length - 2) // 2:
            second = 2 * (second + 1)
            a[first + hole] = a[first + second - 1]
            hole = second - 1
        parent = (hole - 1) // 2
        while hole > top and less(a[first + parent], value):  # (__push_heap)
            a[first + hole] = a[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        a[first + hole] = value

    def heapsort(first: int, last: int) -> None:  # (__partial_sort(first, last, last))
        length = last - first
        parent = (length - 2) // 2
        while length >= 2:
            adjust(first, parent, length, a[first + parent])
            if parent == 0:
                break
            parent -= 1
        while last - first > 1:
            last -= 1
            v = a[last]
            a[last] = a[first]
            adjust(first, 0, last - first, v)

    def median_to_first(r: int, x: int, y: int, z: int) -> None:  # (__move_median_to_first)
        if less(a[x], a[y]):
            k = y if less(a[y], a[z]) else z if less(a[x], a[z]) else x
        else:
            k = x if less(a[x], a[z]) else z if less(a[y], a[z]) else y
        a[r], a[k] = a[k], a[r]

    def partition(first: int, last: int, pivot: int) -> int:  # (__unguarded_partition)
        while True:
            while less(a[first], a[pivot]):
                first += 1
            last -= 1
            while less(a[pivot], a[last]):
                last -= 1
            if not first < last:
                return first
            a[first], a[last] = a[last], a[first]
            first += 1

    def introsort(first: int, last: int, depth: int) -> None:  # (__introsort_loop)
        while last - first > _THRESHOLD:
            if depth == 0:
                heapsort(first, last)
                return
            depth -= 1
            median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
            cut = partition(first + 1, last, first)
            introsort(cut, last, depth)
            last = cut

    if n > 1:
        introsort(0, n, 2 * (n.bit_length() - 1))
        insertion(0, min(n, _THRESHOLD))  # (__final_insertion_sort)
        for i in range(_THRESHOLD, n):
            linear_insert(i)
    return a
