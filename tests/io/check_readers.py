#!/usr/bin/python3
"""Checks that a FieldWriter output file reads correctly with h5py and with xarray/netCDF4.

usage: /usr/bin/python3 tests/io/check_readers.py FILE.h5 NX NY NZ NRECORDS

Checks: dims (time, z, y, x) with the given sizes, coordinate values present and
increasing, every field of shape (NRECORDS, NZ, NY, NX) in float64, h5py and xarray
returning the same values, CF global attributes, and the XDMF sidecar (FILE.xmf)
parsing as XML with one grid per record that points at existing datasets.
Prints what each reader saw; exits 1 listing every problem found.
"""
import os
import sys
import warnings
import xml.etree.ElementTree as ET

import h5py
import netCDF4  # noqa: F401  imported here so its import-time warnings are not blamed on the file
import numpy as np
import xarray as xr

COORDS = ("time", "z", "y", "x")
problems = []


def problem(msg):
    problems.append(msg)


def text(value):
    """Attribute as str: h5py returns netCDF-style fixed-length text as bytes."""
    return value.decode("utf-8") if isinstance(value, (bytes, np.bytes_)) else str(value)


def check_h5py(path, shape):
    """Returns {variable name: values} as h5py reads them."""
    values = {}
    with h5py.File(path, "r") as f:
        sizes = dict(zip(COORDS, shape))
        for name in COORDS:
            if name not in f:
                problem(f"h5py: coordinate dataset '{name}' missing")
                continue
            ds = f[name]
            if ds.shape != (sizes[name],):
                problem(f"h5py: '{name}' has shape {ds.shape}, expected ({sizes[name]},)")
            if text(ds.attrs.get("CLASS", b"")) != "DIMENSION_SCALE":
                problem(f"h5py: '{name}' is not an HDF5 dimension scale")
            values[name] = ds[...]
        fields = [n for n in f if n not in COORDS and isinstance(f[n], h5py.Dataset)]
        if not fields:
            problem("h5py: no field datasets")
        for name in fields:
            ds = f[name]
            if ds.shape != shape or ds.dtype != np.float64:
                problem(f"h5py: field '{name}' is {ds.dtype} {ds.shape}, expected float64 {shape}")
            if ds.maxshape[0] is not None:
                problem(f"h5py: field '{name}' is not extendible along time")
            for d, dim_name in enumerate(COORDS):
                attached = [s.name for s in ds.dims[d].values()]
                if attached != ["/" + dim_name]:
                    problem(f"h5py: field '{name}' dim {d} has scales {attached}, expected ['/{dim_name}']")
            values[name] = ds[...]
        attrs = {k: f.attrs[k] for k in f.attrs}
        print(f"h5py:   {path}: fields {fields}, chunks {[f[n].chunks for n in fields]}")
        print(f"h5py:   global attributes {{{', '.join(f'{k}: {text(v)!r}' for k, v in attrs.items())}}}")
    return values


def check_xarray(path, shape, h5_values):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with xr.open_dataset(path, engine="netcdf4") as ds:
            ds.load()
            check_dataset(ds, shape, h5_values)
    for w in caught:
        problem(f"xarray warned: {w.category.__name__}: {w.message}")


def check_dataset(ds, shape, h5_values):
    print(f"xarray: dims {dict(ds.sizes)}, coords {list(ds.coords)}, data_vars {list(ds.data_vars)}")
    print(f"xarray: time = {ds['time'].values if 'time' in ds else None} ({ds['time'].attrs.get('units') if 'time' in ds else ''})")
    expected = dict(zip(COORDS, shape))
    if dict(ds.sizes) != expected:
        problem(f"xarray: dims {dict(ds.sizes)}, expected {expected}")
    for name in COORDS:
        if name not in ds.coords:
            problem(f"xarray: coordinate '{name}' missing")
            continue
        v = ds[name].values
        if v.dtype != np.float64 or not np.all(np.diff(v) > 0):
            problem(f"xarray: coordinate '{name}' is not increasing float64: {v!r}")
        if name in h5_values and not np.array_equal(v, h5_values[name]):
            problem(f"xarray: coordinate '{name}' differs from h5py's")
    for name, var in ds.data_vars.items():
        if var.dims != COORDS or var.shape != shape:
            problem(f"xarray: field '{name}' has dims {var.dims} {var.shape}, expected {COORDS} {shape}")
        elif name in h5_values and not np.array_equal(var.values, h5_values[name]):
            problem(f"xarray: field '{name}' values differ from h5py's")
        print(f"xarray: {name}{var.dims} units={var.attrs.get('units')!r} "
              f"min={float(var.min()):g} max={float(var.max()):g}")
    if set(ds.data_vars) != set(h5_values) - set(COORDS):
        problem(f"xarray: data_vars {sorted(ds.data_vars)} differ from h5py fields")
    if ds.attrs.get("Conventions") != "CF-1.8":
        problem(f"xarray: Conventions = {ds.attrs.get('Conventions')!r}, expected 'CF-1.8'")
    for name in ("dx", "dy", "dz"):
        if not isinstance(ds.attrs.get(name), (float, np.floating)):
            problem(f"xarray: global attribute {name} = {ds.attrs.get(name)!r}, expected a float")


def check_xdmf(h5_path, shape, h5_values):
    xmf = os.path.splitext(h5_path)[0] + ".xmf"
    try:
        root = ET.parse(xmf).getroot()
    except (OSError, ET.ParseError) as e:
        problem(f"xdmf: cannot parse {xmf}: {e}")
        return
    series = root.find("Domain/Grid[@CollectionType='Temporal']")
    grids = series.findall("Grid") if series is not None else []
    times = [float(g.find("Time").get("Value")) for g in grids]
    print(f"xdmf:   {xmf}: {len(grids)} records at times {times}")
    if len(grids) != shape[0]:
        problem(f"xdmf: {len(grids)} records, expected {shape[0]}")
    if "time" in h5_values and not np.array_equal(times, h5_values["time"][:len(times)]):
        problem(f"xdmf: times {times} differ from the file's {list(h5_values['time'])}")
    for r, g in enumerate(grids):
        check_hyperslabs(g, r, shape)
        for item in g.iter("DataItem"):
            if item.get("Format") != "HDF":
                continue
            file_name, _, dataset = item.text.strip().partition(":")
            dims = tuple(int(n) for n in item.get("Dimensions").split())
            if file_name != os.path.basename(h5_path) or dataset.lstrip("/") not in h5_values:
                problem(f"xdmf: {g.get('Name')} points at unknown {item.text.strip()}")
            elif dims != h5_values[dataset.lstrip("/")].shape:
                problem(f"xdmf: {item.text.strip()} declared {dims}, file has "
                        f"{h5_values[dataset.lstrip('/')].shape}")


def check_hyperslabs(grid, record, shape):
    """Each field must cut record `record` out of its 4D dataset, declared with the mesh's
    rank-3 shape (ParaView's XDMF Reader fails when it is declared as 1 x nz x ny x nx)."""
    mesh = grid.find("Topology").get("Dimensions").split()
    expected_rows = [[record, 0, 0, 0], [1, 1, 1, 1], [1, *shape[1:]]]
    for attr in grid.findall("Attribute"):
        slab = attr.find("DataItem[@ItemType='HyperSlab']")
        if slab is None:
            problem(f"xdmf: {grid.get('Name')}/{attr.get('Name')} has no HyperSlab")
            continue
        rows = [int(n) for n in slab.find("DataItem").text.split()]
        rows = [rows[0:4], rows[4:8], rows[8:12]]
        if slab.get("Dimensions").split() != mesh or rows != expected_rows:
            problem(f"xdmf: {grid.get('Name')}/{attr.get('Name')}: HyperSlab {slab.get('Dimensions')} "
                    f"{rows}, expected {' '.join(mesh)} {expected_rows}")


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__)
    path = argv[1]
    nx, ny, nz, nrec = (int(a) for a in argv[2:])
    shape = (nrec, nz, ny, nx)
    h5_values = {}
    for check in (lambda: h5_values.update(check_h5py(path, shape)),
                  lambda: check_xarray(path, shape, h5_values),
                  lambda: check_xdmf(path, shape, h5_values)):
        try:
            check()
        except Exception as e:  # any reader failure is a finding, not a crash
            problem(f"{type(e).__name__}: {e}")
    if problems:
        print(f"check_readers: FAIL ({len(problems)} problems):", file=sys.stderr)
        for p in problems:
            print(f"  - {p}", file=sys.stderr)
        return 1
    print(f"check_readers: OK: {path} reads as (time, z, y, x) = {shape} with h5py and xarray")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
