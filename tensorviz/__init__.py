"""tensorviz: see how tensors really work (engine being assembled)."""
