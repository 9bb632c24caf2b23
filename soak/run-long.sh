#!/usr/bin/env bash
# The soak's long form: at least 100 random faults and 20 SIGKILLs per engine (the Connect worker, the Spark
# driver), five rounds per delivery mode of three workers one of which is killed and comes back
# (ThreeWorkersRebalanceIT), and the plugin on every Connect line on every Java installed here. Builds what the soak
# needs (no other tests run), then prints each soak's counts. Extra arguments go to Maven: -Dsoak.seed=<seed> repeats
# a run, -Dsoak.kills=40 kills more, -Dsoak.rebalanceRounds=10 runs more rounds of the three workers.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p soak/tests/target
mvn -B verify -pl soak/tests -am -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test='KafkaSoakIT,SparkSoakIT,ConnectVersionsIT,ThreeWorkersRebalanceIT' -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dsoak.faults=100 -Dsoak.kills=20 -Dsoak.matrix=full -Dsoak.rebalanceRounds=5 "$@" > soak/tests/target/long.log 2>&1
status=$?
grep -E "Tests run:|FAIL|BUILD" soak/tests/target/long.log
grep -h -A4 "^soak of" soak/tests/target/failsafe-reports/*-output.txt
grep -h -A12 "^three workers, the busiest" soak/tests/target/failsafe-reports/*-output.txt
exit $status
