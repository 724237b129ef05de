"""net.py - a Python binding of a model compiled as a library (examples/embed).

    import net
    model = net.load("last.safetensors")     # net.Error when it fails
    y = model.predict(x)                     # x: NumPy [N, *input_shape]

Loads libnet.so (`modelc MODEL.model --emit=lib -o libnet.so`) from this
file's folder, or from $NET_LIBRARY, with ctypes: no compilation, no pip.
x holds samples as stored (the data block's input transform is applied
inside); predict returns the model's outputs, float32 [N, *output_shape].
"""
import ctypes
import os

import numpy as np

_lib = ctypes.CDLL(os.environ.get(
    "NET_LIBRARY", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "libnet.so")))
_lib.net_load.restype = ctypes.c_void_p
_lib.net_load.argtypes = [ctypes.c_char_p]
_lib.net_predict.restype = ctypes.c_int
_lib.net_predict.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_int64, ctypes.c_void_p]
for _f in (_lib.net_input_shape, _lib.net_output_shape):
    _f.restype = ctypes.c_int
    _f.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64), ctypes.c_int]
_lib.net_free.restype = None
_lib.net_free.argtypes = [ctypes.c_void_p]
_lib.net_last_error.restype = ctypes.c_char_p
_lib.net_last_error.argtypes = []


class Error(Exception):
    """A failed call: the library's message."""


def _shape(fn, handle):
    dims = (ctypes.c_int64 * 16)()
    rank = fn(handle, dims, 16)
    return tuple(dims[i] for i in range(rank))


class Model:
    """A loaded checkpoint."""

    def __init__(self, checkpoint):
        self._handle = _lib.net_load(os.fsencode(checkpoint))
        if not self._handle:
            raise Error(_lib.net_last_error().decode())
        self.input_shape = _shape(_lib.net_input_shape, self._handle)
        self.output_shape = _shape(_lib.net_output_shape, self._handle)

    def predict(self, x):
        """The outputs of samples x ([N, *input_shape], or one sample)."""
        x = np.ascontiguousarray(x, dtype=np.float32)
        if x.shape == self.input_shape:
            x = x[None]
        if x.shape[1:] != self.input_shape:
            raise Error(f"samples of shape {x.shape[1:]}, the model takes "
                        f"{self.input_shape}")
        y = np.empty((x.shape[0],) + self.output_shape, dtype=np.float32)
        if _lib.net_predict(self._handle, x.ctypes.data, x.shape[0],
                            y.ctypes.data) != 0:
            raise Error(_lib.net_last_error().decode())
        return y

    def __del__(self):
        if getattr(self, "_handle", None):
            _lib.net_free(self._handle)
            self._handle = None


def load(checkpoint):
    """Loads a checkpoint of the model; raises Error when it fails."""
    return Model(checkpoint)
