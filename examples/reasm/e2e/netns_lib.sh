# SPDX-License-Identifier: BSD-2-Clause
# netns_lib.sh - the namespaces of the end-to-end test and benchmark,
# sourced by netns_e2e.sh and tx_bench.sh (bash).
#
#   src --(s0|m0, MTU 1280)-- mid --(m1|d0, MTU 65535)-- dst
#
# src and dst hold the addresses ($SRC4, $SRC6 and $DST4, $DST6) and each
# other's MAC as a permanent neighbour entry, so no ARP or ND is needed
# and the first fragment already carries d0's MAC. mid has no address
# (IPv6 off), forwarding off, and GRO/GSO/TSO off on m0 and m1: its
# kernel drops what it receives, and only a program reading m0 and
# writing m1 moves traffic: tc (l2_on: u32 + mirred, a plain L2
# forwarder, or a bridge where tc cannot), or reasm.
#
# The caller sets E2E_NAME (message prefix) and TMP (a directory for
# logs, made here), then calls e2e_prepare (skips with status 77 when
# namespaces cannot be made) and e2e_setup. The EXIT trap kills every
# pid in $bg_pids and deletes the namespaces (E2E_KEEP=1 keeps them), and
# $TMP too when E2E_RM_TMP=1.

SKIP=77
SRC4=10.77.0.1 DST4=10.77.0.2 SRC6=fd77::1 DST6=fd77::2
NS_SRC=grain-e2e-src-$$ NS_MID=grain-e2e-mid-$$ NS_DST=grain-e2e-dst-$$
failures=0
bg_pids=""
netns_made=""
L2_MODE=""

say() { printf '%s: %s\n' "${E2E_NAME:-e2e}" "$*"; }
fail() {
	printf '%s: FAIL: %s\n' "${E2E_NAME:-e2e}" "$*"
	failures=$((failures + 1))
}
skip() {
	printf '%s: SKIP: %s\n' "${E2E_NAME:-e2e}" "$*"
	exit $SKIP
}
# Print a log file, indented, under a title (last $3 lines, default 40).
show() {
	printf '%s: --- %s ---\n' "${E2E_NAME:-e2e}" "$1"
	sed 's/^/    /' "$2" 2>/dev/null | tail -n "${3:-40}"
}

in_src() { ip netns exec "$NS_SRC" "$@"; }
in_mid() { ip netns exec "$NS_MID" "$@"; }
in_dst() { ip netns exec "$NS_DST" "$@"; }

# Forget a background pid (it has been waited for).
bg_forget() {
	bg_pids=$(echo " $bg_pids " | sed "s/ $1 / /; s/^ *//; s/ *$//")
}

e2e_cleanup() {
	local rc=$?
	for p in $bg_pids; do
		kill "$p" 2>/dev/null
	done
	for p in $bg_pids; do
		wait "$p" 2>/dev/null
	done
	if [ "${E2E_KEEP:-0}" = 1 ] && [ -n "$netns_made" ]; then
		say "E2E_KEEP=1: namespaces left: $netns_made"
	else
		for ns in $netns_made; do
			ip netns del "$ns" 2>/dev/null
		done
	fi
	[ "${E2E_RM_TMP:-0}" = 1 ] && rm -rf "$TMP"
	exit $rc
}

# Checks that namespaces can be made here (else exits 77), installs the
# traps, makes $TMP.
e2e_prepare() {
	trap e2e_cleanup EXIT
	trap 'say "interrupted"; exit 130' INT TERM HUP
	[ "$(id -u)" = 0 ] ||
		skip "needs root (network namespaces, veth, raw sockets)"
	command -v ip >/dev/null 2>&1 || skip "no 'ip' command (iproute2)"
	local err
	err=$(ip netns add "$NS_SRC" 2>&1) ||
		skip "cannot create a network namespace: $err"
	netns_made="$NS_SRC"
	rm -rf "$TMP"
	mkdir -p "$TMP" || exit 1
}

# --- Topology -------------------------------------------------------------------
setup() {
	ip netns add "$NS_MID" && netns_made="$netns_made $NS_MID" &&
		ip netns add "$NS_DST" && netns_made="$netns_made $NS_DST" ||
		return 1
	# mid: no IPv6 (no link-local address either), no forwarding.
	in_mid sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 net.ipv4.ip_forward=0 ||
		return 1
	ip link add s0 netns "$NS_SRC" type veth peer name m0 netns "$NS_MID" &&
		ip link add m1 netns "$NS_MID" type veth peer name d0 \
			netns "$NS_DST" || return 1
	ip -n "$NS_SRC" link set s0 mtu 1280 &&
		ip -n "$NS_MID" link set m0 mtu 1280 &&
		ip -n "$NS_MID" link set m1 mtu 65535 &&
		ip -n "$NS_DST" link set d0 mtu 65535 || return 1
	if command -v ethtool >/dev/null 2>&1; then
		for i in m0 m1; do
			in_mid ethtool -K "$i" gro off gso off tso off \
				>/dev/null 2>&1 ||
				say "note: ethtool -K $i gro/gso/tso off failed"
		done
	else
		say "note: no ethtool; GRO/GSO/TSO left as they are on mid"
	fi
	ip -n "$NS_SRC" addr add $SRC4/24 dev s0 &&
		ip -n "$NS_SRC" addr add $SRC6/64 dev s0 nodad &&
		ip -n "$NS_DST" addr add $DST4/24 dev d0 &&
		ip -n "$NS_DST" addr add $DST6/64 dev d0 nodad || return 1
	for pair in "$NS_SRC s0" "$NS_MID m0" "$NS_MID m1" "$NS_DST d0"; do
		set -- $pair
		ip -n "$1" link set lo up && ip -n "$1" link set "$2" up ||
			return 1
	done
	S0_MAC=$(in_src cat /sys/class/net/s0/address)
	D0_MAC=$(in_dst cat /sys/class/net/d0/address)
	ip -n "$NS_SRC" neigh replace $DST4 lladdr "$D0_MAC" dev s0 \
		nud permanent &&
		ip -n "$NS_SRC" -6 neigh replace $DST6 lladdr "$D0_MAC" \
			dev s0 nud permanent &&
		ip -n "$NS_DST" neigh replace $SRC4 lladdr "$S0_MAC" dev d0 \
			nud permanent &&
		ip -n "$NS_DST" -6 neigh replace $SRC6 lladdr "$S0_MAC" \
			dev d0 nud permanent || return 1
}

# Builds the topology, or fails the run (status 1; 77 where veth pairs
# cannot be made).
e2e_setup() {
	if ! setup >"$TMP/setup.log" 2>&1; then
		show "topology setup" "$TMP/setup.log"
		if grep -qiE 'not supported|unknown|no such device' \
			"$TMP/setup.log"; then
			skip "veth pairs cannot be made here"
		fi
		say "FAIL: topology setup"
		exit 1
	fi
	say "topology: $NS_SRC(s0 $S0_MAC) -- $NS_MID(m0|m1) --" \
		"$NS_DST(d0 $D0_MAC)"
}

# --- mid as a plain L2 forwarder --------------------------------------------------
# tc: every frame arriving on m0 leaves on m1 unchanged. Falls back to a
# bridge (netfilter calls off) where tc's u32 or mirred is missing, or
# when E2E_L2=bridge.
l2_on() {
	if [ "${E2E_L2:-}" != bridge ] && command -v tc >/dev/null 2>&1 && in_mid tc qdisc add dev m0 ingress 2>/dev/null &&
		in_mid tc filter add dev m0 ingress protocol all u32 \
			match u32 0 0 action mirred egress redirect dev m1 \
			2>/dev/null; then
		L2_MODE=mirred
		return 0
	fi
	in_mid tc qdisc del dev m0 ingress 2>/dev/null
	in_mid sysctl -qw net.bridge.bridge-nf-call-iptables=0 \
		net.bridge.bridge-nf-call-ip6tables=0 2>/dev/null
	in_mid ip link add br0 type bridge &&
		in_mid ip link set m0 master br0 &&
		in_mid ip link set m1 master br0 &&
		in_mid ip link set br0 up || return 1
	L2_MODE=bridge
}
l2_off() {
	if [ "$L2_MODE" = mirred ]; then
		in_mid tc qdisc del dev m0 ingress
	else
		in_mid ip link del br0
	fi
}

# --- Counters -------------------------------------------------------------------
# dst's IpReasmReqds + Ip6ReasmReqds (fragments its kernel reassembled).
dst_reasm_reqds() {
	local v
	if command -v nstat >/dev/null 2>&1; then
		v=$(in_dst nstat -azs IpReasmReqds Ip6ReasmReqds 2>/dev/null |
			awk '$1 ~ /ReasmReqds$/ { s += $2 } END { print s + 0 }')
	else
		v=$(in_dst sh -c 'cat /proc/net/snmp /proc/net/snmp6' |
			awk '/^Ip6ReasmReqds/ { s += $2 }
			     /^Ip: Forwarding/ { split($0, h) }
			     /^Ip: [0-9]/ { for (i = 1; i <= NF; i++)
				if (h[i] == "ReasmReqds") s += $i }
			     END { print s + 0 }')
	fi
	echo "${v:-0}"
}

# Value of counter $2 in the JSON file $1 (empty if absent).
json_num() {
	sed -n "s/^ *\"$2\": *\([0-9]*\).*/\1/p" "$1"
}

