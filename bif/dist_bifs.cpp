// bif/dist_bifs.cpp — the distribution's BIFs: naming this node (erlang:setnode/2), taking a
// connection from dist_util (setnode/3), the connection handles net_kernel keeps, nodes/0,1,2,
// is_alive/0, monitor_node/2,3 and spawn requests to other nodes (dist/distribution.hpp).
#include <string_view>

#include "bif/bifs.hpp"
#include "bif/process_bifs.hpp"
#include "dist/distribution.hpp"
#include "vm/bignum.hpp"
#include "vm/magic.hpp"
#include "vm/map.hpp"
#include "vm/node.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

dist::Distribution* distribution(Process* p) { return dist::of(p->vm); }

bool alive() { return this_node().name != atoms::nonode_at_nohost; }

// Whether [name] is a node name: Name@Host, both parts non-empty.
bool is_node_name(Term name) {
    if (!is_atom(name)) return false;
    std::string_view text = atom_text(name);
    std::size_t at = text.find('@');
    return at != std::string_view::npos && at > 0 && at + 1 < text.size();
}

bool dynamic_name = false;

// When the process that named this node (net_kernel) exits, the node is no longer alive:
// its connections go down and it is nonode@nohost again (OTP's net_kernel exit handling);
// nodes monitors get {nodedown, OldName}.
void net_kernel_down(MagicHandle* h, Term) {
    Term old = this_node().name;
    set_this_node({atoms::nonode_at_nohost, 0});
    if (auto* d = static_cast<dist::Distribution*>(h->data)) d->this_node_changed(old, false);
}

}  // namespace

// erlang:setnode(Node, Creation): this node's name, from net_kernel.
Term bif_setnode2(Process* p, Term* a) {
    std::int64_t creation;
    if (!is_node_name(a[0]) || !is_small(a[1]) || (creation = small_value(a[1])) < 0 || creation > 0xFFFFFFFF ||
        !distribution(p))
        return p->badarg();
    if (alive()) return p->badarg();
    set_this_node({a[0], std::uint32_t(creation)});
    distribution(p)->this_node_changed(a[0], true);
    auto* h = new MagicHandle();
    h->down = net_kernel_down;
    h->data = distribution(p);
    add_resource_monitor(p, h);
    h->release();
    return atoms::true_;
}

// erts_internal:create_dist_channel(Node, Controller, {Flags, Creation}): {ok, Handle} or an
// error atom that erlang:setnode/3 raises. The controller is a port or a local process.
Term bif_create_dist_channel(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    Term opts = a[2];
    if (!d || !is_tuple(opts) || tuple_arity(opts) != 2 || !is_small(tuple_element(opts, 0)) ||
        !is_small(tuple_element(opts, 1)) || !is_node_name(a[0]) || !alive() || !(is_port(a[1]) || is_pid(a[1])))
        return atoms::badarg;
    Term handle = d->create_channel(p, a[0], a[1], std::uint64_t(small_value(tuple_element(opts, 0))),
                                    std::uint32_t(small_value(tuple_element(opts, 1))));
    if (is_atom(handle)) return handle;
    // net_kernel links to the controller and takes the nodeup that follows from this process.
    p->vm.send(p, atoms::net_kernel, make_tuple_on(p, {atom("dist_ctrlr"), a[1], a[0], p->id}));
    return make_tuple_on(p, {atoms::ok, handle});
}

// {erts_dflags, Default, Mandatory, Addable, Rejectable, StrictOrder}, as dist_util reads them.
Term bif_get_dflags(Process* p, Term*) {
    return make_tuple_on(p, {atom("erts_dflags"), make_integer_u64(p, dist::dflag::DEFAULT),
                             make_integer_u64(p, dist::dflag::MANDATORY), make_integer_u64(p, dist::dflag::DEFAULT),
                             make_integer_u64(p, dist::dflag::REJECTABLE),
                             make_integer_u64(p, dist::dflag::STRICT_ORDER)});
}

Term bif_get_creation(Process* p, Term*) { return make_integer_u64(p, this_node().creation); }

Term bif_new_connection(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    if (!d || !is_atom(a[0]) || !alive()) return p->badarg();
    return d->new_connection(p, a[0]);
}

Term bif_abort_pending_connection(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    if (!d || !is_atom(a[0]) || !dist::Distribution::is_handle(a[1])) return p->badarg();
    return make_bool(d->abort_pending_connection(a[0], a[1]));
}

Term bif_dynamic_node_name0(Process*, Term*) { return make_bool(dynamic_name); }
Term bif_dynamic_node_name1(Process* p, Term* a) {
    if (a[0] != atoms::true_ && a[0] != atoms::false_) return p->badarg();
    dynamic_name = a[0] == atoms::true_;
    return atoms::ok;
}

// erlang:dist_ctrl_*: a connection controlled by a process (an alternative carrier).
Term bif_dist_ctrl_get_data(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    Term data = d ? d->ctrl_get_data(p, a[0]) : 0;
    return data ? data : p->badarg();
}

Term bif_dist_ctrl_get_data_notification(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    return d && d->ctrl_get_data_notification(p, a[0]) ? atoms::ok : p->badarg();
}

Term bif_dist_ctrl_put_data(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    std::string packet;
    if (!d || !iolist_to_bytes(a[1], &packet)) return p->badarg();
    return d->ctrl_put_data(p, a[0], packet) ? atoms::ok : p->badarg();
}

Term bif_dist_ctrl_input_handler(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    return d && d->ctrl_input_handler(p, a[0], a[1]) ? atoms::ok : p->badarg();
}

Term bif_dist_ctrl_get_opt(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    Term value = d ? d->ctrl_opt(p, a[0], a[1], 0) : 0;
    return value ? value : p->badarg();
}

Term bif_dist_ctrl_set_opt(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    Term old = d && a[2] ? d->ctrl_opt(p, a[0], a[1], a[2]) : 0;
    return old ? old : p->badarg();
}

Term bif_dist_get_stat(Process* p, Term* a) {
    dist::Distribution* d = distribution(p);
    Term stat = d ? d->get_stat(p, a[0]) : 0;
    return stat ? stat : p->badarg();
}

Term bif_nodes0(Process* p, Term*) {
    dist::Distribution* d = distribution(p);
    if (!d) return NIL;
    Term list = NIL;
    std::vector<Term> nodes = d->nodes(true, false);
    for (std::size_t i = nodes.size(); i-- > 0;) list = make_cons_on(p->alloc(2), nodes[i], list);
    return list;
}

namespace {
// The nodes of nodes/1,2's [arg]: a type or a list of them; false for a bad one.
bool node_types(Term arg, bool* visible, bool* hidden, bool* self) {
    *visible = *hidden = *self = false;
    auto one = [&](Term t) {
        if (t == atom("visible")) *visible = true;
        else if (t == atom("hidden")) *hidden = true;
        else if (t == atom("connected")) *visible = *hidden = true;
        else if (t == atom("this")) *self = true;
        else if (t == atom("known")) *visible = *hidden = *self = true;
        else return false;
        return true;
    };
    if (is_atom(arg)) return one(arg);
    Term l = arg;
    for (; is_list(l); l = cdr(l))
        if (!one(car(l))) return false;
    return is_nil(l);
}
}  // namespace

Term bif_nodes1(Process* p, Term* a) {
    bool visible, hidden, self;
    if (!node_types(a[0], &visible, &hidden, &self)) return p->badarg();
    dist::Distribution* d = distribution(p);
    std::vector<Term> nodes;
    if (self) nodes.push_back(this_node().name);
    if (d && (visible || hidden)) {
        std::vector<Term> connected = d->nodes(visible, hidden);
        nodes.insert(nodes.end(), connected.begin(), connected.end());
    }
    Term list = NIL;
    for (std::size_t i = nodes.size(); i-- > 0;) list = make_cons_on(p->alloc(2), nodes[i], list);
    return list;
}

// nodes(Arg, #{connection_id => Bool, node_type => Bool}): [{Node, Info}].
Term bif_nodes2(Process* p, Term* a) {
    bool visible, hidden, self;
    if (!node_types(a[0], &visible, &hidden, &self) || !is_map(a[1])) return p->badarg();
    bool want_id = false, want_type = false;
    if (const Term* v = map_lookup(a[1], atom("connection_id"))) want_id = *v == atoms::true_;
    if (const Term* v = map_lookup(a[1], atom("node_type"))) want_type = *v == atoms::true_;
    dist::Distribution* d = distribution(p);
    std::vector<std::pair<Term, Term>> nodes;  // node, type
    if (self) nodes.emplace_back(this_node().name, atom("this"));
    if (d) {
        if (visible)
            for (Term n : d->nodes(true, false)) nodes.emplace_back(n, atom("visible"));
        if (hidden)
            for (Term n : d->nodes(false, true)) nodes.emplace_back(n, atom("hidden"));
    }
    Term list = NIL;
    for (std::size_t i = nodes.size(); i-- > 0;) {
        std::vector<std::pair<Term, Term>> info;
        if (want_id) {
            std::int64_t id = nodes[i].second == atom("this") || !d ? -1 : d->connection_id(nodes[i].first);
            info.emplace_back(atom("connection_id"), id < 0 ? atoms::undefined : make_integer(p, id));
        }
        if (want_type) info.emplace_back(atom("node_type"), nodes[i].second);
        Term entry = make_tuple_on(p, {nodes[i].first, map_from_pairs(p, info)});
        list = make_cons_on(p->alloc(2), entry, list);
    }
    return list;
}

Term bif_is_alive(Process*, Term*) { return make_bool(alive()); }

// monitor_node(Node, Flag): {nodedown, Node} when the connection goes (at once if none can be
// made). This node is never down; another node needs this one alive (notalive, OTP's error,
// before the flag is looked at).
Term bif_monitor_node2(Process* p, Term* a) {
    bool flag = a[1] == atoms::true_ || a[1] == atoms::false_;
    if (!is_atom(a[0])) return p->badarg();
    if (a[0] == this_node().name) return flag ? atoms::true_ : p->badarg();
    dist::Distribution* d = distribution(p);
    if (!alive() || !d) return p->error(atom("notalive"));
    if (!flag) return p->badarg();
    d->monitor_node(p, a[0], a[1] == atoms::true_);
    return atoms::true_;
}

Term bif_monitor_node3(Process* p, Term* a) {
    Term l = a[2];
    for (; is_list(l); l = cdr(l))
        if (car(l) != atom("allow_passive_connect")) return p->badarg();
    if (!is_nil(l)) return p->badarg();
    return bif_monitor_node2(p, a);
}

// erts_internal:dist_spawn_request(Node, {M, F, A}, Opts, spawn_request | spawn_opt).
Term bif_dist_spawn_request(Process* p, Term* a) {
    Term mfa = a[1];
    if (!is_tuple(mfa) || tuple_arity(mfa) != 3) return atoms::badarg;
    bool spawn_opt = a[3] == atom("spawn_opt");
    dist::Distribution* d = distribution(p);
    if (!d || !alive()) {
        // No connection can be made: the request fails with noconnection, as OTP's.
        Word id[3];
        new_ref_id(p, id);
        Term req = make_ref_term(p, id);
        p->vm.send_message(nullptr, p->id, make_tuple_on(p, {atoms::spawn_reply, req, atoms::error, atoms::noconnection}));
        return spawn_opt ? make_tuple_on(p, {req, atoms::false_}) : req;
    }
    return d->spawn_request(p, a[0], tuple_element(mfa, 0), tuple_element(mfa, 1), tuple_element(mfa, 2), a[2],
                            spawn_opt);
}

}  // namespace beamlet::bif
