"""The views layer: Panel screens over the state, their common widgets and charts; the shell composes them."""
