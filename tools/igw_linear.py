#!/usr/bin/python3
"""theta' of an inertia-gravity-wave run (cases/inertia_gravity_waves.toml) against the linear
analytic solution of the Boussinesq equations, computed here independently of the model.

usage: tools/igw_linear.py RUN_DIR [--png FILE] [--no-write] [--centred]

The linearised equations about a wind U (= the geostrophic wind when f != 0) in a uniformly
stratified environment (b = g / theta_0, N^2 = b dtheta_e/dz), between rigid lids at z = 0 and H,
periodic in x, in the frame moving with U:
  u_t = f v - pi_x,  v_t = -f u,  w_t = b theta' - pi_z,  theta'_t = -(N^2 / b) w,  u_x + w_z = 0.
The initial theta' = A sin(pi z / H) / (1 + ((x - x_c) / a)^2) is one vertical mode (m = pi / H):
theta', w ~ sin(m z), u, v, pi ~ cos(m z). Each Fourier mode k in x then obeys (pi eliminated by
continuity) the 3 x 3 system for (v, w, theta'):
  v_t = -i f m w / k,  w_t = (b k^2 theta' - i f k m v) / (k^2 + m^2),  theta'_t = -(N^2 / b) w,
integrated exactly by its eigenvectors from v = w = 0, and shifted by U t. The modes are those of
the sampled initial state (an FFT over the model's cell centres).
With the environment as the reference (environment.reference = "environment" in summary.json:
theta_0(z) = theta_e(z) = theta_0 exp(N^2 z / g), the buoyancy g theta' / theta_e(z)), the same system
holds for theta~ = (theta_0 / theta_e(z)) theta' (b theta~ is the buoyancy, whose tendency is -N^2 w);
theta~'s initial state exp(-N^2 z / g) sin(pi z / H) is expanded in the modes sin(j pi z / H), j = 1..64,
each integrated as above, and theta' = (theta_e / theta_0) theta~.

Reads RUN_DIR/summary.json (the case's parameters) and RUN_DIR/fields.h5 (theta' at the last
record), prints the relative L2 error and adds to summary.json under `validation`:
  linear_solution_rel_l2      ||theta' - theta'_lin||_2 / ||theta'_lin||_2 over the x-z section
  linear_solution_max_abs_error_K, linear_solution_time_s.
--png FILE draws the model's and the linear solution's theta' cross-sections and their difference.
--centred also prints the error against the linear solution of the model's collocated centred
differences: k -> sin(k dx) / dx and m -> sin(m dz) / dz in the 3 x 3 system (the shift by U t keeps
the exact k), which isolates the error of the gradient and divergence over 2 dx from the rest
(advection, time stepping); and that solution's own error against the exact one, beside the same with
fourth-order centred differences in x (k -> (8 sin(k dx) - sin(2 k dx)) / (6 dx)): what fourth-order
horizontal operators would leave of it. summary.json is left as it is.
Exits 2 when the run is not a gravity-wave run or its files cannot be read.
Needs numpy and h5py (and matplotlib for --png): run with Debian's /usr/bin/python3.
"""
import argparse
import json
import os
import sys

import h5py
import numpy as np


def linear_theta(x, z, t, p, centred=False):
    """theta'(x, z, t) of the linear solution on the cell centres x (periodic over lx) and z; with centred
    (True or 2), of the linearised equations discretised by centred differences over 2 dx and 2 dz; 4:
    fourth-order centred differences in x."""
    h = p["lz"]
    if p.get("reference", "isentropic") != "environment":
        return np.outer(np.sin(np.pi / h * z), linear_section(x, z, t, p, 1, centred))  # [z, x]
    decay = p["brunt_vaisala"] ** 2 / p["gravity"]  # theta_0 / theta_e = exp(-decay z)
    zf = (np.arange(8192) + 0.5) * h / 8192
    tilde = np.zeros((z.size, x.size))
    for j in range(1, 65):  # the sine coefficients of exp(-decay z) sin(pi z / H) (midpoint rule)
        c = 2.0 / 8192 * np.sum(np.exp(-decay * zf) * np.sin(np.pi * zf / h) * np.sin(j * np.pi * zf / h))
        tilde += c * np.outer(np.sin(j * np.pi / h * z), linear_section(x, z, t, p, j, centred))
    return tilde * np.exp(decay * z)[:, None]


def linear_section(x, z, t, p, j, centred):
    """The x section at time t of vertical mode j (sin(j pi z / H)) started from the initial x profile."""
    b = p["gravity"] / p["theta0"]
    n2, f, u = p["brunt_vaisala"] ** 2, p["coriolis"], p["wind_u"]
    lx, h = p["lx"], p["lz"]
    theta0 = p["amplitude"] / (1.0 + ((x - p["x"]) / p["half_width"]) ** 2)
    hat = np.fft.rfft(theta0)
    k = 2.0 * np.pi * np.fft.rfftfreq(x.size, d=lx / x.size)
    out = np.empty_like(hat)
    dx, dz = lx / x.size, h / z.size
    for n, k_exact in enumerate(k):
        if k_exact == 0.0:  # no vertical motion in the mean: theta' stays
            out[n] = hat[n]
            continue
        m_exact = j * np.pi / h
        kk, m = k_exact, m_exact
        if centred:
            m = np.sin(m_exact * dz) / dz
            kk = np.sin(k_exact * dx) / dx if centred != 4 else (8 * np.sin(k_exact * dx) - np.sin(2 * k_exact * dx)) / (6 * dx)
        a = np.array([[0, -1j * f * m / kk, 0],
                      [-1j * f * kk * m / (kk**2 + m**2), 0, b * kk**2 / (kk**2 + m**2)],
                      [0, -n2 / b, 0]], dtype=complex)
        lam, vec = np.linalg.eig(a)
        y0 = np.linalg.solve(vec, np.array([0, 0, hat[n]], dtype=complex))
        out[n] = (vec @ (np.exp(lam * t) * y0))[2] * np.exp(-1j * k_exact * u * t)
    return np.fft.irfft(out, n=x.size)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--png")
    ap.add_argument("--no-write", action="store_true", help="leave summary.json as it is")
    ap.add_argument("--centred", action="store_true",
                    help="also the error against the linear solution of centred differences over 2 dx, 2 dz")
    args = ap.parse_args()
    summary_path = os.path.join(args.run_dir, "summary.json")
    try:
        with open(summary_path) as fh:
            s = json.load(fh)
        wave, env = s["gravity_wave"], s["environment"]
        with h5py.File(os.path.join(args.run_dir, "fields.h5"), "r") as f5:
            theta = np.asarray(f5["theta"][-1])  # [z, y, x]
            x, z, t = np.asarray(f5["x"]), np.asarray(f5["z"]), float(f5["time"][-1])
    except (OSError, KeyError, ValueError) as e:
        print(f"igw_linear: cannot read a gravity-wave run in {args.run_dir}: {e}", file=sys.stderr)
        return 2
    p = dict(wave)
    p.update(gravity=s["buoyancy"]["gravity"], theta0=s["buoyancy"]["theta0"], brunt_vaisala=env["brunt_vaisala"],
             coriolis=env["coriolis"], wind_u=env["wind"][0], reference=env.get("reference", "isentropic"))
    if env["profile"] != "constant_n" or env["coriolis"] != 0 and env["geostrophic_wind"][0] != env["wind"][0]:
        print("igw_linear: needs a constant-N environment (and a geostrophic wind equal to the wind when f != 0)",
              file=sys.stderr)
        return 2
    model = theta.mean(axis=1)
    ref = linear_theta(x, z, t, p)
    err = float(np.sqrt(np.sum((model - ref) ** 2) / np.sum(ref**2)))
    max_err = float(np.max(np.abs(model - ref)))
    print(f"t = {t:g} s, grid {x.size} x {z.size}: theta' relative L2 error against the linear solution {err:.4e}, "
          f"max |error| {max_err:.3e} K (max |theta'_lin| {np.max(np.abs(ref)):.3e} K)")
    if args.centred:
        ref_c = linear_theta(x, z, t, p, centred=True)
        err_c = float(np.sqrt(np.sum((model - ref_c) ** 2) / np.sum(ref_c**2)))
        print(f"against the linear solution of centred differences over 2 dx, 2 dz: relative L2 error {err_c:.4e}, "
              f"max |error| {float(np.max(np.abs(model - ref_c))):.3e} K")
        own = [float(np.sqrt(np.sum((c - ref) ** 2) / np.sum(ref**2))) for c in (ref_c, linear_theta(x, z, t, p, centred=4))]
        print(f"that solution against the exact one: relative L2 error {own[0]:.4e}; with fourth-order differences "
              f"in x {own[1]:.4e}")
    if not args.no_write:
        s.setdefault("validation", {})
        s["validation"]["linear_solution_rel_l2"] = err
        s["validation"]["linear_solution_max_abs_error_K"] = max_err
        s["validation"]["linear_solution_time_s"] = t
        tmp = summary_path + ".tmp"
        with open(tmp, "w") as fh:
            json.dump(s, fh, indent=2)
        os.replace(tmp, summary_path)
    if args.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(3, 1, figsize=(10, 7.5), sharex=True, constrained_layout=True)
        levels = np.linspace(-0.003, 0.003, 13)
        levels = levels[levels != 0]
        for ax, data, title in ((axes[0], model, "model"), (axes[1], ref, "linear analytic solution")):
            cs = ax.contour(x / 1e3, z / 1e3, data, levels=levels, colors="k", linewidths=0.8)
            ax.clabel(cs, fontsize=6, fmt="%.4f")
            ax.set_title(f"theta' (K) at t = {t:g} s: {title}")
            ax.set_ylabel("z (km)")
        im = axes[2].pcolormesh(x / 1e3, z / 1e3, model - ref, cmap="RdBu_r", shading="nearest")
        fig.colorbar(im, ax=axes[2], label="K")
        axes[2].set_title(f"model - linear (relative L2 error {err:.3e})")
        axes[2].set_xlabel("x (km)")
        axes[2].set_ylabel("z (km)")
        fig.savefig(args.png, dpi=80)
        print(args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
