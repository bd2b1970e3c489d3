// vm/arith.hpp — Erlang arithmetic on terms: the slow paths shared by BIFs, ops and the JIT.
//
// Each function returns the result, or THE_NON_VALUE after raising badarith (or badarg where
// OTP does) on [p]. Results are allocated on [p] with Process::alloc (never a GC).
#pragma once

#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;

Term arith_plus(Process* p, Term a, Term b);     // a + b
Term arith_minus(Process* p, Term a, Term b);    // a - b
Term arith_times(Process* p, Term a, Term b);    // a * b
Term arith_divide(Process* p, Term a, Term b);   // a / b (always a float)
Term arith_int_div(Process* p, Term a, Term b);  // a div b
Term arith_rem(Process* p, Term a, Term b);      // a rem b
Term arith_band(Process* p, Term a, Term b);
Term arith_bor(Process* p, Term a, Term b);
Term arith_bxor(Process* p, Term a, Term b);
Term arith_bsl(Process* p, Term a, Term b);
Term arith_bsr(Process* p, Term a, Term b);
Term arith_bnot(Process* p, Term a);
Term arith_negate(Process* p, Term a);           // -a
Term arith_unary_plus(Process* p, Term a);       // +a (badarith unless a number)
Term arith_abs(Process* p, Term a);              // abs/1 (badarg unless a number)
// A float result: badarith if [v] is not finite, as OTP.
Term make_float_checked(Process* p, double v);
// [t] as a double (integers converted); false if [t] is not a number or too big.
bool number_to_double(Term t, double* out);

}  // namespace beamlet::vm
