// Fields as StarPU data: one block handle per tile (interior plus ghost ring), registered with
// StarPU-MPI under its owner rank, so the same task graph runs on one rank or many. Host memory is
// allocated (pinned) only for the tiles a rank owns.
#pragma once
#include <starpu.h>

#include <string>
#include <vector>

#include "../../codelets/common/send_ahead.hpp"
#include "grid.hpp"

namespace tdc {

// MPI tags for data handles: every rank registers every handle in the same order.
std::int64_t next_data_tag();

class TiledField {
 public:
  // host_memory = false: StarPU allocates the tiles where they are first written (snapshots,
  // temporaries), no host copy.
  TiledField(std::string name, const Decomposition& d, int rank, bool host_memory = true);
  ~TiledField();
  TiledField(const TiledField&) = delete;
  TiledField& operator=(const TiledField&) = delete;

  const std::string& name() const { return name_; }
  starpu_data_handle_t handle(int tile) const { return handles_[tile]; }
  bool owned(int tile) const { return host_[tile] != nullptr; }
  // Host array of an owned tile, for initialisation before any task touches it.
  double* host(int tile) { return host_[tile]; }

 private:
  std::string name_;
  std::vector<double*> host_;
  std::vector<starpu_data_handle_t> handles_;
  std::size_t bytes_;
};

// The four border strips of every tile (vector handles, owned with their tile).
class TileStrips {
 public:
  TileStrips(const Decomposition& d, int rank);
  ~TileStrips();  // (first waits for the tasks whose callbacks read sends_)
  TileStrips(const TileStrips&) = delete;
  TileStrips& operator=(const TileStrips&) = delete;
  const starpu_data_handle_t* of(int tile) const { return &handles_[4 * tile]; }
  starpu_data_handle_t side(int tile, int side) const { return handles_[4 * tile + side]; }
  // The copies of tile t's strips toward the neighbours that read them, for the task that writes
  // them (send_ahead.hpp); null where this run does not send ahead.
  const SendAhead* sends(int tile) const { return sends_.empty() || sends_[tile].empty() ? nullptr : &sends_[tile]; }

 private:
  std::vector<starpu_data_handle_t> handles_;
  std::vector<SendAhead> sends_;
};

// Vectors of doubles, vector i held with tile tiles[i] (its owner rank, its home GPU); StarPU
// allocates each where it is first written: per-tile partials, the pieces a transpose moves.
class TileHeldVectors {
 public:
  TileHeldVectors(const Decomposition& d, const std::vector<int>& tiles, const std::vector<long>& doubles);
  ~TileHeldVectors();
  TileHeldVectors(const TileHeldVectors&) = delete;
  TileHeldVectors& operator=(const TileHeldVectors&) = delete;
  starpu_data_handle_t handle(int i) const { return handles_[i]; }

 private:
  std::vector<starpu_data_handle_t> handles_;
};

// A small vector of doubles per tile (per-tile partial results), owned with the tile.
class TileVectors : public TileHeldVectors {
 public:
  TileVectors(const Decomposition& d, int rank, int doubles);
};

// A small vector owned by rank 0, its host copy there (other ranks receive it on demand): solver
// state snapshots and the like.
class RankZeroVector {
 public:
  RankZeroVector(int rank, int doubles);
  // Holding `values` (kept on rank 0 only).
  RankZeroVector(int rank, const std::vector<double>& values);
  ~RankZeroVector();
  RankZeroVector(const RankZeroVector&) = delete;
  RankZeroVector& operator=(const RankZeroVector&) = delete;
  starpu_data_handle_t handle() const { return handle_; }

 private:
  std::vector<double> host_;
  starpu_data_handle_t handle_ = nullptr;
};

// Per-worker temporary memory for a codelet (STARPU_SCRATCH): allocated by StarPU on whichever
// device runs the task, never transferred.
class ScratchBuffer {
 public:
  explicit ScratchBuffer(std::size_t bytes);
  ~ScratchBuffer();
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;
  starpu_data_handle_t handle() const { return handle_; }

 private:
  starpu_data_handle_t handle_ = nullptr;
};

// Brings every tile of `f` to rank 0 and copies the interiors into a global array (x fastest,
// [nz][ny][nx]); collective over ranks, the array is filled on rank 0 only.
void gather_field(const Decomposition& d, const TiledField& f, int rank, std::vector<double>& global);

// The inverse for a field no task has touched yet: copies this rank's tiles' interiors from a global
// array ([nz][ny][nx], x fastest) into their host buffers; ghost rings come from a halo exchange.
void load_interiors(const Decomposition& d, const std::vector<double>& global, TiledField& f);

}  // namespace tdc
