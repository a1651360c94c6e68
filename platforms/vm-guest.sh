#!/usr/bin/env bash
# platforms/vm-guest.sh OUT CASES DOCTOR PYTEST ARGS: run inside the VM by platforms/vm.sh, as root, in the
# root cgroup of a cgroup v2 kernel with no systemd. Lays out the cgroups systemd would give each
# case (the same folders, owners and enabled controllers), runs `judge.py doctor` and the tests
# there, and writes a report to OUT/report (the lines vm.sh prints).
set -uo pipefail
{  # read whole before it runs: an edit of this file meanwhile changes nothing of a run
OUT=$1; CASES=$2; DOCTOR=$3; shift 3  # DOCTOR "layers": its layers alone (the short tier), else judge.py doctor
SRC=$PWD
CG=/sys/fs/cgroup
PY=$SRC/.venv/bin/python
USER_ID=65534  # nobody: an unprivileged user
result=ok
report() { echo "$*" >>"$OUT/report"; }

copy_checkout() {  # a copy of the checkout owned by the uid that runs it (the host's is read-only here)
    local dir=/tmp/judge-$1
    [ -d "$dir" ] && return
    mkdir -p "$dir"
    tar -C "$SRC" --exclude=./.venv --exclude=./.platforms --exclude=./.git --exclude=__pycache__ \
        --exclude=.pytest_cache -cf - . | tar -C "$dir" -xf -
    chown -R "$1:$1" "$dir"
}

open_to_users() {  # open_to_users PATH: let every user reach PATH (an interpreter under /root, with
    # pyenv): a folder above it that only its owner may enter is covered, in the guest alone, by a
    # tmpfs that all may enter, holding just the way down to PATH (a bind mount of the next folder)
    local target dir rest next
    target=$(readlink -f "$1")
    for _ in 1 2 3 4; do
        dir=/ rest=${target#/} next=""
        while [ -n "$rest" ]; do
            next=${rest%%/*}; rest=${rest#"$next"}; rest=${rest#/}
            if (( ($(stat -c %a "$dir") & 1) == 0 )); then break; fi
            dir=${dir%/}/$next; next=""
        done
        [ -n "$next" ] || return 0  # every folder above it may be entered
        mkdir -p "/tmp/keep$dir/$next"
        { mount --bind "${dir%/}/$next" "/tmp/keep$dir/$next" && mount -t tmpfs -o mode=755 tmpfs "$dir" \
            && mkdir "${dir%/}/$next" && mount --bind "/tmp/keep$dir/$next" "${dir%/}/$next"; } \
            || { report "could not open $dir to other users"; return 1; }
    done
}

enable() {  # enable the pids and memory controllers for the children of each cgroup given
    for cgroup in "$@"; do echo "+pids +memory" >"$CG$cgroup/cgroup.subtree_control" || return 1; done
}

run_in() {  # run_in CGROUP UID COMMAND...: COMMAND as UID, its process moved into CGROUP first
    local cgroup=$1 uid=$2; shift 2
    (
        # a judge run before made the cgroup hand its controllers down and moved its processes into
        # its leaf: a login shell's later commands start there
        if [ -d "$CG$cgroup/judge-leaf" ]; then cgroup=$cgroup/judge-leaf; fi
        echo "$BASHPID" >"$CG$cgroup/cgroup.procs" || exit 99
        cd "/tmp/judge-$uid" || exit 99
        mkdir -p "/tmp/home-$CASE"; chown "$uid:$uid" "/tmp/home-$CASE"
        if [ "$uid" = 0 ]; then exec env HOME="/tmp/home-$CASE" JUDGE_VM_CASE="$CASE" "$@"; fi
        exec setpriv --reuid="$uid" --regid="$uid" --clear-groups env HOME="/tmp/home-$CASE" JUDGE_VM_CASE="$CASE" "$@"
    )
}

beside() {  # beside CGROUP UID: a process that is not the judge's (a login shell, a user's manager)
    run_in "$1" "$2" sleep 100000 >/dev/null 2>&1 &
    STANDINS="$STANDINS $!"
}

layout() {  # make CASE's cgroups; sets CGROUP (where the judge runs) and UID_ (who runs it)
    local user_slice=/user.slice/user-$USER_ID.slice
    case "$CASE" in
        root-root) CGROUP=/ UID_=0;;
        root-scope)  # an ssh login: the shell and what it starts, in the session's scope
            mkdir -p $CG/user.slice/user-0.slice/session-1.scope && enable / /user.slice /user.slice/user-0.slice
            beside /user.slice/user-0.slice/session-1.scope 0  # the login shell
            CGROUP=/user.slice/user-0.slice/session-1.scope UID_=0;;
        root-service)  # a service's own cgroup (or `systemd-run --scope`): the judge alone in it
            mkdir -p $CG/system.slice/judge.service && enable / /system.slice
            CGROUP=/system.slice/judge.service UID_=0;;
        user-delegated)  # user@.service (Delegate=yes), and `systemd-run --user --scope -p Delegate=yes` in it
            local manager=$user_slice/user@$USER_ID.service
            mkdir -p $CG$manager && enable / /user.slice $user_slice || return 1
            chown "$USER_ID" $CG$manager $CG$manager/cgroup.procs $CG$manager/cgroup.subtree_control $CG$manager/cgroup.threads
            setpriv --reuid=$USER_ID --regid=$USER_ID --clear-groups sh -e -c "
                mkdir $CG$manager/init.scope $CG$manager/app.slice
                echo '+pids +memory' > $CG$manager/cgroup.subtree_control
                echo '+pids +memory' > $CG$manager/app.slice/cgroup.subtree_control
                mkdir $CG$manager/app.slice/run-judge.scope" || return 1
            beside "$manager/init.scope" $USER_ID  # the user's manager (systemd --user)
            CGROUP=$manager/app.slice/run-judge.scope UID_=$USER_ID;;
        user-none)  # a user's login shell: its session scope belongs to root
            mkdir -p $CG$user_slice/session-2.scope && enable / /user.slice $user_slice
            beside $user_slice/session-2.scope $USER_ID  # the login shell
            CGROUP=$user_slice/session-2.scope UID_=$USER_ID;;
        *) return 1;;
    esac
}

report "kernel $(uname -r), $(grep -c cgroup2 /proc/mounts) cgroup2 mount(s), cgroup v1 mounts: $(grep -c ' cgroup ' /proc/mounts), Landlock ABI: $($PY -c 'import ctypes; print(ctypes.CDLL(None, use_errno=True).syscall(444, None, 0, 1))'), $($PY --version)"
open_to_users "$PY"
for CASE in $CASES; do
    STANDINS=""
    layout || { report "== $CASE: could not lay out its cgroups"; result=failed; continue; }
    cgroup=$CGROUP uid=$UID_
    copy_checkout "$uid"
    report "== $CASE: uid $uid in cgroup $cgroup"
    start=$(date +%s)
    if [ "$DOCTOR" = layers ]; then  # what doctor prints of the layers, without its compilers' table
        run_in "$cgroup" "$uid" "$PY" -c "from tcjudge.engine import isolation
layers = isolation.all_layers()
print(isolation.doctor_report(layers)[0]); print(isolation.probed_layers_warning(layers=layers))" >"$OUT/$CASE.doctor" 2>&1
    else
        run_in "$cgroup" "$uid" "$PY" judge.py doctor >"$OUT/$CASE.doctor" 2>&1
    fi
    report "doctor's layers (exit $?, $(( $(date +%s) - start )) s):"
    awk '/^bounds/{on=1} on && /^[a-z]/ && !/^bounds/{on=0} on' "$OUT/$CASE.doctor" | sed 's/^/    /' >>"$OUT/report"
    grep "warning" "$OUT/$CASE.doctor" | sed 's/^/    /' >>"$OUT/report"
    start=$(date +%s)
    run_in "$cgroup" "$uid" "$PY" -m pytest -q -n 0 -p no:cacheprovider -rs "$@" >"$OUT/$CASE.pytest" 2>&1
    code=$?
    report "pytest $* (exit $code, $(( $(date +%s) - start )) s): $(tail -n 1 "$OUT/$CASE.pytest")"
    grep -E "^(FAILED|ERROR|SKIPPED)" "$OUT/$CASE.pytest" | cut -c1-300 | sed 's/^/    /' >>"$OUT/report"
    [ $code -eq 0 ] || { result=failed; sed -n '/= FAILURES =/,$p' "$OUT/$CASE.pytest" | head -n 80 >"$OUT/$CASE.failures"; }
    # shellcheck disable=SC2086
    [ -z "$STANDINS" ] || { kill $STANDINS; wait $STANDINS; } 2>/dev/null
    left=$(find $CG -name 'judge-[0-9]*' -type d 2>/dev/null)
    if [ -n "$left" ]; then
        report "    LEFT BEHIND: $left"; result=failed
        find $CG -depth -name 'judge-[0-9]*' -type d -exec sh -c 'rmdir "$1"/* "$1"' _ {} \; 2>/dev/null
    fi
done
for failures in "$OUT"/*.failures; do [ -e "$failures" ] && { report "--- $failures"; cat "$failures" >>"$OUT/report"; }; done
report "vm-result: $result"
exit
}
