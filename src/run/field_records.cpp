#include "field_records.hpp"

#include "grid_axes.hpp"
#include "run_failure.hpp"

namespace tdc {

FieldRecords::FieldRecords(const Decomposition& d, int rank, std::string path, const Grid& grid,
                           std::vector<std::string> names, Attributes attributes, Attributes units, std::mutex& hdf5,
                           Observer observe)
    : path_(std::move(path)),
      grid_(grid),
      names_(std::move(names)),
      attributes_(std::move(attributes)),
      units_(std::move(units)),
      hdf5_(hdf5),
      observe_(std::move(observe)) {
  output_ = std::make_unique<AsyncFieldOutput>(
      d, rank, int(names_.size()), [this](double time, const std::vector<std::vector<double>>& f) {
        std::lock_guard<std::mutex> lock(hdf5_);
        if (observe_) observe_(time, f);
        // A failed write (a full disk) ends the run here: tasks
        // still fill the snapshots, so nothing may unwind.
        or_fail_run([&] {
          if (!writer_)
            writer_ = std::make_unique<io::FieldWriter>(path_, cell_centre_axes(grid_), names_, attributes_, units_);
          std::vector<const double*> ptrs;
          for (const auto& x : f) ptrs.push_back(x.data());
          writer_->append(time, ptrs);
        });
      });
}

}  // namespace tdc
