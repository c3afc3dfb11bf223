// Peer driver for tools/peer_bench.sh: times libmpdata++ (igfuw/libmpdataxx, header-only, not part of
// this repository; tools/peer_bench.sh builds this file against a local copy of it) on the problems
// that `taskdycore bench mpdata` and `taskdycore run cases/taylor_green.toml` time, and prints one
// line of key=value figures that the script parses.
//
//   mpdata_peer mpdata --grid 64x64x64 --steps 100 --repeat 3 --warmup 5 --fct on --iga off
//     MPDATA (n_iters = 2, i.e. iord 2), G = 1, cyclic in x, y and z, double precision. The flow is
//     taskdycore's bench flow: solid-body rotation about z on the unit cube, omega = 2 pi, dt =
//     1.6 / (omega (nx + ny)) (largest Courant sum 0.8), a cone of radius 0.15 at (0.5, 0.75, 0.5).
//     Steps per second times nx ny nz gives Mcell/s; the median over the timed runs is reported.
//
//   mpdata_peer tgv --grid 65x65x65 --steps 20 --dt 0.02 --tol 1e-7 [--sgs iles|dns --rey 800]
//     Taylor-Green vortex on the 2 pi cube with libmpdata++'s prognosed-velocity solver
//     (mpdata_rhs_vip_prs: iga + FCT momentum advection, CR pressure solver to --tol), as in its
//     tests/sandbox/tgv/tgv_3d.cpp but without output. libmpdata++'s cyclic grids repeat the first
//     point as the last, so its 65^3 is taskdycore's 64^3 (di = 2 pi / (nx - 1)). --sgs iles (the
//     default) is inviscid, like cases/taylor_green.toml; dns adds the sandbox's viscous stress.
//
// Threads: concurr::openmp, as many as OMP_NUM_THREADS.

#include <libmpdata++/concurr/openmp.hpp>
#include <libmpdata++/solvers/mpdata.hpp>
#include <libmpdata++/solvers/mpdata_rhs_vip_prs.hpp>
#include <libmpdata++/solvers/mpdata_rhs_vip_prs_sgs.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace libmpdataxx;

namespace {

struct Args {
  int nx = 64, ny = 64, nz = 64;
  int steps = 100, repeat = 3, warmup = 5;
  bool fct = true, iga = false;
  double dt = 0.02, tol = 1e-7, rey = 800;
  std::string sgs = "iles";
};

bool on_off(const std::string& v) {
  if (v == "on") return true;
  if (v == "off") return false;
  throw std::runtime_error("expected on|off, got " + v);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int k = 2; k < argc; ++k) {
    const std::string key = argv[k];
    if (k + 1 >= argc) throw std::runtime_error("missing value for " + key);
    const std::string v = argv[++k];
    if (key == "--grid") {
      if (std::sscanf(v.c_str(), "%dx%dx%d", &a.nx, &a.ny, &a.nz) != 3) throw std::runtime_error("--grid NXxNYxNZ");
    } else if (key == "--steps") a.steps = std::stoi(v);
    else if (key == "--repeat") a.repeat = std::stoi(v);
    else if (key == "--warmup") a.warmup = std::stoi(v);
    else if (key == "--fct") a.fct = on_off(v);
    else if (key == "--iga") a.iga = on_off(v);
    else if (key == "--dt") a.dt = std::stod(v);
    else if (key == "--tol") a.tol = std::stod(v);
    else if (key == "--rey") a.rey = std::stod(v);
    else if (key == "--sgs") a.sgs = v;
    else throw std::runtime_error("unknown option " + key);
  }
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class F>
std::vector<double> time_runs(const Args& a, F&& advance) {
  if (a.warmup > 0) advance(a.warmup);
  std::vector<double> ms;
  for (int r = 0; r < a.repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    advance(a.steps);
    ms.push_back(1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / a.steps);
  }
  return ms;
}

// the threads concurr::openmp runs with (it sets them from OMP_NUM_THREADS)
int omp_threads() {
  int n = 1;
#pragma omp parallel
  {
#pragma omp single
    n = omp_get_num_threads();
  }
  return n;
}

void print_runs(const std::vector<double>& ms) {
  std::printf(" ms_per_step_all=");
  for (std::size_t k = 0; k < ms.size(); ++k) std::printf("%s%.4f", k ? "," : "", ms[k]);
}

// ---------------------------------------------------------------------------------------------- MPDATA

template <int opts_arg>
void run_mpdata(const Args& a) {
  struct ct_params_t : ct_params_default_t {
    using real_t = double;
    enum { n_dims = 3 };
    enum { n_eqns = 1 };
    enum { opts = opts_arg };
  };
  using solver_t = solvers::mpdata<ct_params_t>;
  typename solver_t::rt_params_t p;
  const double omega = 2 * M_PI;
  const double dx = 1.0 / a.nx, dy = 1.0 / a.ny, dz = 1.0 / a.nz;
  const double dt = 1.6 / (omega * (a.nx + a.ny));
  p.n_iters = 2;
  p.grid_size = {a.nx, a.ny, a.nz};
  p.dt = dt;
  p.di = dx;
  p.dj = dy;
  p.dk = dz;

  concurr::openmp<solver_t, bcond::cyclic, bcond::cyclic, bcond::cyclic, bcond::cyclic, bcond::cyclic,
                  bcond::cyclic>
      slv(p);

  blitz::firstIndex i;
  blitz::secondIndex j;
  blitz::thirdIndex k;
  const double r0 = 0.15, x0 = 0.5, y0 = 0.75, z0 = 0.5;
  // cone of height 1 on a background of 1 (positive, as the non-iga FCT form wants)
  slv.advectee() = 1.0 + blitz::max(0.0, 1.0 - blitz::sqrt(blitz::pow2((i + 0.5) * dx - x0) +
                                                           blitz::pow2((j + 0.5) * dy - y0) +
                                                           blitz::pow2((k + 0.5) * dz - z0)) /
                                                   r0);
  // Courant numbers of u = -omega (y - 1/2), v = omega (x - 1/2), w = 0 (non-divergent whatever the
  // staggering: u depends on y only, v on x only)
  slv.advector(0) = -omega * ((j + 0.5) * dy - 0.5) * dt / dx;
  slv.advector(1) = omega * ((i + 0.5) * dx - 0.5) * dt / dy;
  slv.advector(2) = 0.0;

  const auto ms = time_runs(a, [&](int n) { slv.advance(n); });
  const double m = median(ms);
  const double cells = double(a.nx) * a.ny * a.nz;
  double sum = 0;
  {
    auto psi = slv.advectee();
    sum = blitz::sum(psi);
  }
  std::printf("peer=libmpdata++ case=mpdata grid=%dx%dx%d threads=%d fct=%d iga=%d steps=%d repeat=%d ms_per_step=%.4f "
              "mcells_per_s=%.3f",
              a.nx, a.ny, a.nz, omp_threads(),
              int(a.fct), int(a.iga), a.steps, a.repeat, m, 1e-3 * cells / m);
  print_runs(ms);
  std::printf(" psi_sum=%.10g\n", sum);
}

// --------------------------------------------------------------------------------------- Taylor-Green

std::atomic<long> g_prs_iters{0};
std::atomic<long> g_prs_steps{0};

// counts the pressure solver's iterations (rank 0 of the threads speaks for all)
template <class parent_t_>
class counting : public parent_t_ {
  using parent_t = parent_t_;

 public:
  using parent_t::parent_t;

 protected:
  void hook_post_step() override {
    parent_t::hook_post_step();
    if (this->rank == 0) {
      g_prs_iters += this->iters;
      ++g_prs_steps;
    }
  }
};

template <int sgs>
struct tgv_ct_params_t : ct_params_default_t {
  using real_t = double;
  enum { n_dims = 3 };
  enum { opts = opts::fct | opts::iga };
  enum { n_eqns = 3 };
  enum { rhs_scheme = solvers::trapez };
  enum { sgs_scheme = sgs };
  enum { stress_diff = solvers::pade };
  enum { prs_scheme = solvers::cr };
  struct ix {
    enum { u, v, w, vip_i = u, vip_j = v, vip_k = w, vip_den = -1 };
  };
  enum { hint_norhs = opts::bit(ix::u) | opts::bit(ix::v) | opts::bit(ix::w) };
};

template <class solver_t>
void run_tgv_with(const Args& a, typename solver_t::rt_params_t& p, const char* sgs_name) {
  using ix = typename tgv_ct_params_t<0>::ix;
  p.n_iters = 2;
  p.dt = a.dt;
  p.di = 2 * M_PI / (a.nx - 1);
  p.dj = 2 * M_PI / (a.ny - 1);
  p.dk = 2 * M_PI / (a.nz - 1);
  p.prs_tol = a.tol;
  p.grid_size = {a.nx, a.ny, a.nz};

  concurr::openmp<solver_t, bcond::cyclic, bcond::cyclic, bcond::cyclic, bcond::cyclic, bcond::cyclic,
                  bcond::cyclic>
      slv(p);
  {
    blitz::firstIndex i;
    blitz::secondIndex j;
    blitz::thirdIndex k;
    slv.advectee(ix::u) = sin(p.di * i) * cos(p.dj * j) * cos(p.dk * k);
    slv.advectee(ix::v) = -cos(p.di * i) * sin(p.dj * j) * cos(p.dk * k);
    slv.advectee(ix::w) = 0.0;
  }
  const auto ms = time_runs(a, [&](int n) {
    g_prs_iters = 0;
    g_prs_steps = 0;
    slv.advance(n);
  });
  const double m = median(ms);
  const double iters = g_prs_steps > 0 ? double(g_prs_iters) / g_prs_steps : 0.0;
  double ke = 0;
  {
    auto u = slv.advectee(ix::u);
    auto v = slv.advectee(ix::v);
    auto w = slv.advectee(ix::w);
    ke = 0.5 * blitz::mean(u * u + v * v + w * w);
  }
  std::printf("peer=libmpdata++ case=tgv sgs=%s grid=%dx%dx%d threads=%d dt=%g tol=%g steps=%d repeat=%d "
              "ms_per_step=%.4f prs_iters_per_step=%.2f",
              sgs_name, a.nx, a.ny, a.nz,
              omp_threads(),
              a.dt, a.tol, a.steps, a.repeat, m, iters);
  print_runs(ms);
  std::printf(" ke=%.10g\n", ke);
}

void run_tgv(const Args& a) {
  if (a.sgs == "iles") {
    using solver_t = counting<solvers::mpdata_rhs_vip_prs<tgv_ct_params_t<solvers::iles>>>;
    typename solver_t::rt_params_t p;
    run_tgv_with<solver_t>(a, p, "iles");
  } else if (a.sgs == "dns") {
    using solver_t = counting<solvers::mpdata_rhs_vip_prs_sgs<tgv_ct_params_t<solvers::dns>>>;
    typename solver_t::rt_params_t p;
    p.eta = 1.0 / a.rey;
    run_tgv_with<solver_t>(a, p, "dns");
  } else {
    throw std::runtime_error("--sgs iles|dns");
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2 || (std::strcmp(argv[1], "mpdata") && std::strcmp(argv[1], "tgv"))) {
      std::fprintf(stderr, "usage: %s mpdata|tgv [--grid NXxNYxNZ] [--steps N] [--repeat N] [--warmup N]\n"
                           "       mpdata: [--fct on|off] [--iga on|off]\n"
                           "       tgv:    [--dt DT] [--tol TOL] [--sgs iles|dns] [--rey RE]\n",
                   argv[0]);
      return 2;
    }
    const Args a = parse(argc, argv);
    if (!std::strcmp(argv[1], "mpdata")) {
      if (a.fct && a.iga) run_mpdata<opts::fct | opts::iga>(a);
      else if (a.fct) run_mpdata<opts::fct>(a);
      else if (a.iga) run_mpdata<opts::iga>(a);
      else run_mpdata<0>(a);
    } else {
      run_tgv(a);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpdata_peer: %s\n", e.what());
    return 1;
  }
  return 0;
}
