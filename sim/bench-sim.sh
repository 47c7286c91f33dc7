#!/bin/sh
# sim/bench-sim.sh - instructions per simulated core-tick, counted with
# callgrind (machine-independent). For each policy and task count the
# idealised workload runs twice, to T1 + N/16 and T2 + N/16 ticks (N tasks:
# both ends after every task's first dispatch, the steady state); the
# difference of the two instruction counts of the simulation loop
# (Simulator::run, so set-up and the report, whose cost depends on the
# figures' values, are excluded) divided by cores * (T2 - T1) is the
# marginal cost of one core-tick. Issue 23's targets (exact model, nothing
# extra asked for): rr <= 80, dwrr and idwrr <= 150, eevdf <= 300; O(1)
# policies flat from 4k to 400k tasks.
# MODEL (exact|seed, default exact), SLICE (default 1), QUEUES (single|percpu,
# default single) and FAIRNESS (on|off, default off, as schedsim's own
# default: on adds the fluid reference and lag sampling) are passed on;
# QUEUES=both prints single, percpu and their ratio.
set -e
SIM=${1:-build/schedsim}
CORES=16
T1=${T1:-3000}
T2=${T2:-6000}
MODEL=${MODEL:-exact}
SLICE=${SLICE:-1}
QUEUES=${QUEUES:-single}
FAIRNESS=${FAIRNESS:-off}
instr() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --toggle-collect='*Simulator<*>::run()' "$SIM" --no-progress --queues "$4" \
        --model "$MODEL" --fairness "$FAIRNESS" --slice "$SLICE" --cores $CORES --policy "$1" --tasks "$2" --ticks "$3" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# Marginal instructions per core-tick of policy $1 with $2 tasks, queues $3.
per_tick() {
    skip=$(($2 / CORES))
    a=$(instr "$1" "$2" $((T1 + skip)) "$3")
    b=$(instr "$1" "$2" $((T2 + skip)) "$3")
    echo "$a $b" | awk -v c=$CORES -v d=$((T2 - T1)) '{printf "%.1f", ($2 - $1) / (c * d)}'
}
echo "model $MODEL, slice $SLICE, $CORES cores, queues $QUEUES, fairness $FAIRNESS"
if [ "$QUEUES" = both ]; then
    # Issue 12: percpu (placement, stealing, balancing) within 1.5x of single.
    printf '%-6s %10s %12s %12s %8s   %s\n' policy tasks single percpu ratio target
    for p in $("$SIM" --list-policies); do
        for n in 4000 400000; do
            s=$(per_tick "$p" "$n" single)
            m=$(per_tick "$p" "$n" percpu)
            r=$(echo "$s $m" | awk '{printf "%.2f", $2 / $1}')
            printf '%-6s %10s %12s %12s %8s   <= 1.5\n' "$p" "$n" "$s" "$m" "$r"
        done
    done
    exit 0
fi
printf '%-6s %10s %16s   %s\n' policy tasks instr/core-tick target
for p in $("$SIM" --list-policies); do
    target=150
    [ "$p" = rr ] && target=80
    [ "$p" = eevdf ] && target=300
    first=""
    for n in 4000 400000; do
        per=$(per_tick "$p" "$n" "$QUEUES")
        growth=""
        if [ -z "$first" ]; then first=$per; else
            growth=$(echo "$first $per" | awk '{printf "(%+.1f%% vs 4000 tasks)", ($2 / $1 - 1) * 100}')
        fi
        printf '%-6s %10s %16s   <= %s %s\n' "$p" "$n" "$per" "$target" "$growth"
    done
done
