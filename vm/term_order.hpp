// vm/term_order.hpp — Erlang term order and equality.
//
// Order: number < atom < reference < fun < port < pid < tuple < map < nil < list < bitstring.
#pragma once

#include "vm/term.hpp"

namespace beamlet::vm {

// <0, 0, >0 in Erlang's standard order, where 1 == 1.0 (the comparison of ==, <, >=, ...).
int compare_terms(Term a, Term b);
// The exact order: like compare_terms but integers and floats of equal value differ
// (an integer sorts before the equal float). Map keys are kept sorted by it (=:= semantics).
int compare_terms_exact(Term a, Term b);
inline bool terms_equal(Term a, Term b) { return a == b || compare_terms(a, b) == 0; }       // ==
// =:= of two compound terms (no immediate among them); terms_exact_equal's slow path.
bool compound_terms_exact_equal(Term a, Term b);
// =:=: an immediate (small integer, atom, local pid or port, []) is exactly equal only to
// itself, so a pair with one needs no walk (the process dictionary's scan compares mostly such).
inline bool terms_exact_equal(Term a, Term b) {
    if (a == b) return true;
    if (is_immediate(a) || is_immediate(b)) return false;
    return compound_terms_exact_equal(a, b);
}

}  // namespace beamlet::vm
