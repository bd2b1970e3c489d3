#!/usr/bin/env bash
# tests/cli/dist_netns_test.sh BEAMLET — nodes on simulated hosts: two network namespaces made
# here, joined by a veth pair with 20 ms of latency and 1% loss (tc netem) on one side, each
# with its own epmd, an erl node and a beamlet node, all with long names (-name N@IP) on
# addresses that exist only inside the namespaces. The program tests/cli/netns/netns_driver
# runs on one host's beamlet node and then, as a reference, on an erl node beside it: pings,
# one seq_trace chain through every node, dbg:n/1 on all of them, the host's link cut (nodedown, noconnection) and restored (the
# nodes connect again). Both runs must print the same (global's reports aside). Everything
# made is removed. Needs root (ip netns); skipped (77) without it.
set -u
beamlet=$1
here=$(cd "$(dirname "$0")" && pwd)
id=$$
ns1=blns1_$id ns2=blns2_$id
dev1=blv1_$((id % 100000)) dev2=blv2_$((id % 100000))
net=10.213.$((id % 250 + 1))
ip1=$net.1 ip2=$net.2
work=$(mktemp -d)
cookie=netns_cookie
flags=(-setcookie $cookie -kernel net_ticktime 4)

cleanup() {
  for ns in $ns1 $ns2; do
    ip netns pids $ns 2>/dev/null | xargs -r kill -9 2>/dev/null
    ip netns del $ns 2>/dev/null
  done
  rm -rf "$work"
}
if ! ip netns add $ns1 2>/dev/null; then
  echo "SKIP: ip netns needs root"
  exit 77
fi
trap cleanup EXIT
ip netns add $ns2 || exit 1
ip link add $dev1 type veth peer name $dev2 || exit 1
ip link set $dev1 netns $ns1 && ip link set $dev2 netns $ns2 || exit 1
ip -n $ns1 addr add $ip1/24 dev $dev1 && ip -n $ns2 addr add $ip2/24 dev $dev2 || exit 1
for ns in $ns1 $ns2; do ip -n $ns link set lo up; done
ip -n $ns1 link set $dev1 up && ip -n $ns2 link set $dev2 up || exit 1
tc -n $ns2 qdisc add dev $dev2 root netem delay 20ms loss 1% 2>/dev/null ||
  echo "note: this kernel has no netem (sch_netem): the link runs without added latency and loss"

cd "$work" || exit 1
cp "$here/netns/netns_driver.erl" . && erlc netns_driver.erl || exit 1
cat >idle.erl <<'ERL'
-module(idle).
-export([main/0]).
main() -> io:format("up~n"), receive after infinity -> ok end.
ERL
erlc idle.erl || exit 1

for ns in $ns1 $ns2; do ip netns exec $ns epmd -daemon; done
# The peers: an erl node on each host, a beamlet node on the second.
ip netns exec $ns1 erl -name e1@$ip1 "${flags[@]}" -noshell -pa . >e1.log 2>&1 &
disown
ip netns exec $ns2 erl -name e2@$ip2 "${flags[@]}" -noshell -pa . >e2.log 2>&1 &
disown
ip netns exec $ns2 "$beamlet" run -name b2@$ip2 "${flags[@]}" -pa . idle >b2.log 2>&1 &
disown
for _ in $(seq 1 100); do
  n1=$(ip netns exec $ns1 epmd -names 2>/dev/null | grep -c '^name')
  n2=$(ip netns exec $ns2 epmd -names 2>/dev/null | grep -c '^name')
  [ "$n1" -ge 1 ] && [ "$n2" -ge 2 ] && break
  sleep 0.2
done
export NETNS_E1=e1@$ip1 NETNS_B2=b2@$ip2 NETNS_E2=e2@$ip2 NETNS_DEV=$dev1

timeout 180 ip netns exec $ns1 "$beamlet" run -name b1@$ip1 "${flags[@]}" -pa . netns_driver >beamlet.out 2>beamlet.err
status=$?
timeout 180 ip netns exec $ns1 erl -name r1@$ip1 "${flags[@]}" -noshell -pa . -s netns_driver main -s init stop >erl.out 2>erl.err
failures=0
if [ $status -ne 0 ]; then
  echo "FAIL: beamlet exited with $status: $(cat beamlet.err)"
  failures=1
fi
# global's reports name the node and the time; their number and order depend on timing.
for f in erl beamlet; do grep -v -e '^=[A-Z]* REPORT' -e "^'global'" -e '^\*\*' -e '^$' $f.out >$f.cmp; done
if ! diff -u erl.cmp beamlet.cmp; then
  echo "FAIL: the program printed other than on erl"
  failures=1
fi
cat beamlet.cmp
[ $failures -eq 0 ] && echo "nodes on simulated hosts: as on erl"
exit $failures
