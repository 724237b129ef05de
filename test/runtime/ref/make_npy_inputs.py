# test/runtime/ref/make_npy_inputs.py — writes the NPY files under
# test/runtime/Inputs/ with NumPy itself, so the NPY reader is checked
# against an independent writer. Run: /usr/bin/python3 ref/make_npy_inputs.py
import os
import numpy as np

out = os.path.join(os.path.dirname(__file__), "..", "Inputs")
np.save(os.path.join(out, "f4_2x3.npy"), np.arange(6, dtype="<f4").reshape(2, 3) * 0.5 - 1)
np.save(os.path.join(out, "f8_3.npy"), np.array([1.25, -2.5, 1e300], dtype="<f8"))
np.save(os.path.join(out, "i4_2x2.npy"), np.array([[1, -2], [3, 2**31 - 1]], dtype="<i4"))
np.save(os.path.join(out, "i8_4.npy"), np.array([0, -1, 2**40, 7], dtype="<i8"))
np.save(os.path.join(out, "u1_2x2x2.npy"), np.arange(8, dtype="u1").reshape(2, 2, 2) * 30)
np.save(os.path.join(out, "fortran_2x3.npy"), np.asfortranarray(np.ones((2, 3), dtype="<f4")))
np.save(os.path.join(out, "bigendian.npy"), np.array([1, 2], dtype=">f4"))
np.save(os.path.join(out, "f2.npy"), np.array([1, 2], dtype="<f2"))
np.save(os.path.join(out, "scalar.npy"), np.array(3.5, dtype="<f4"))
with open(os.path.join(out, "v2_f4_3.npy"), "wb") as f:
    np.lib.format.write_array(f, np.array([1, 2, 3], dtype="<f4"), version=(2, 0))
