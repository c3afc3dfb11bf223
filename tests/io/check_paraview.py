"""Opens an XDMF sidecar with ParaView's XDMF Reader (run under pvbatch) and checks that every
record's field equals the HDF5 data: usage pvbatch check_paraview.py FILE.xmf FILE.h5 FIELD."""
import sys

import h5py
import numpy as np
from paraview import servermanager as sm
from paraview.simple import XDMFReader
from vtk.util.numpy_support import vtk_to_numpy

xmf, h5, field = sys.argv[1:4]
with h5py.File(h5) as f:
    data = f[field][:]
    times = list(f["time"][:])
reader = XDMFReader(FileNames=[xmf])
reader.UpdatePipelineInformation()
seen = list(reader.TimestepValues)
if seen != times:
    sys.exit(f"ParaView sees times {seen}, the file holds {times}")
for record, t in enumerate(times):
    reader.UpdatePipeline(t)
    grid = sm.Fetch(reader)
    while grid.IsA("vtkMultiBlockDataSet"):
        grid = grid.GetBlock(0)
    array = grid.GetPointData().GetArray(field)
    if array is None:
        sys.exit(f"record {record}: ParaView finds no array '{field}'")
    if not np.array_equal(vtk_to_numpy(array), data[record].ravel()):  # x fastest in both
        sys.exit(f"record {record}: ParaView's '{field}' differs from the HDF5 data")
print(f"ParaView XDMF Reader: {len(times)} records of '{field}' equal to the HDF5 data")
print("1 passed, 0 failed")
