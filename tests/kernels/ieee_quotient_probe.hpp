// Device side of the ieee_quotient agreement test (device pointers, count elements).
#pragma once
namespace tdc_test {
void ieee_quotient_on_device(const double* n, const double* d, double* q, int count);
}
