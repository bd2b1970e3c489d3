// bif/math_bifs.cpp — the BIFs of OTP's math module (math.beam defines pi/0 and the rest in
// Erlang). Arguments are numbers; a result that is not a finite float raises badarith.
#include <cmath>

#include "bif/bifs.hpp"
#include "vm/arith.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

template <double (*F)(double)>
Term unary(Process* p, Term* a) {
    double x;
    if (!number_to_double(a[0], &x)) return p->badarg();
    return make_float_checked(p, F(x));
}

template <double (*F)(double, double)>
Term binary(Process* p, Term* a) {
    double x, y;
    if (!number_to_double(a[0], &x) || !number_to_double(a[1], &y)) return p->badarg();
    return make_float_checked(p, F(x, y));
}

// C's functions signal a domain error by NaN (sqrt(-1), acos(2)) and a pole by infinity
// (log(0)): both are badarith, as in OTP.
double c_cos(double x) { return std::cos(x); }
double c_cosh(double x) { return std::cosh(x); }
double c_sin(double x) { return std::sin(x); }
double c_sinh(double x) { return std::sinh(x); }
double c_tan(double x) { return std::tan(x); }
double c_tanh(double x) { return std::tanh(x); }
double c_acos(double x) { return std::acos(x); }
double c_acosh(double x) { return std::acosh(x); }
double c_asin(double x) { return std::asin(x); }
double c_asinh(double x) { return std::asinh(x); }
double c_atan(double x) { return std::atan(x); }
double c_atanh(double x) { return std::atanh(x); }
double c_erf(double x) { return std::erf(x); }
double c_erfc(double x) { return std::erfc(x); }
double c_exp(double x) { return std::exp(x); }
double c_log(double x) { return std::log(x); }
double c_log2(double x) { return std::log2(x); }
double c_log10(double x) { return std::log10(x); }
double c_sqrt(double x) { return std::sqrt(x); }
double c_floor(double x) { return std::floor(x); }
double c_ceil(double x) { return std::ceil(x); }
double c_atan2(double y, double x) { return std::atan2(y, x); }
double c_pow(double x, double y) { return std::pow(x, y); }
double c_fmod(double x, double y) { return std::fmod(x, y); }

}  // namespace

Term bif_math_cos(Process* p, Term* a) { return unary<c_cos>(p, a); }
Term bif_math_cosh(Process* p, Term* a) { return unary<c_cosh>(p, a); }
Term bif_math_sin(Process* p, Term* a) { return unary<c_sin>(p, a); }
Term bif_math_sinh(Process* p, Term* a) { return unary<c_sinh>(p, a); }
Term bif_math_tan(Process* p, Term* a) { return unary<c_tan>(p, a); }
Term bif_math_tanh(Process* p, Term* a) { return unary<c_tanh>(p, a); }
Term bif_math_acos(Process* p, Term* a) { return unary<c_acos>(p, a); }
Term bif_math_acosh(Process* p, Term* a) { return unary<c_acosh>(p, a); }
Term bif_math_asin(Process* p, Term* a) { return unary<c_asin>(p, a); }
Term bif_math_asinh(Process* p, Term* a) { return unary<c_asinh>(p, a); }
Term bif_math_atan(Process* p, Term* a) { return unary<c_atan>(p, a); }
Term bif_math_atanh(Process* p, Term* a) { return unary<c_atanh>(p, a); }
Term bif_math_erf(Process* p, Term* a) { return unary<c_erf>(p, a); }
Term bif_math_erfc(Process* p, Term* a) { return unary<c_erfc>(p, a); }
Term bif_math_exp(Process* p, Term* a) { return unary<c_exp>(p, a); }
Term bif_math_log(Process* p, Term* a) { return unary<c_log>(p, a); }
Term bif_math_log2(Process* p, Term* a) { return unary<c_log2>(p, a); }
Term bif_math_log10(Process* p, Term* a) { return unary<c_log10>(p, a); }
Term bif_math_sqrt(Process* p, Term* a) { return unary<c_sqrt>(p, a); }
Term bif_math_floor(Process* p, Term* a) { return unary<c_floor>(p, a); }
Term bif_math_ceil(Process* p, Term* a) { return unary<c_ceil>(p, a); }
Term bif_math_atan2(Process* p, Term* a) { return binary<c_atan2>(p, a); }
Term bif_math_pow(Process* p, Term* a) { return binary<c_pow>(p, a); }
Term bif_math_fmod(Process* p, Term* a) { return binary<c_fmod>(p, a); }

}  // namespace beamlet::bif
