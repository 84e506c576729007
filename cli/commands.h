// The memplan command line: verbs plan, verify, stats, sweep and targets. Thin: parses flags,
// calls driver/, prints results, maps errors to exit codes.
#pragma once

namespace memplan {

// Exit codes of every verb.
inline constexpr int kExitOk = 0;
inline constexpr int kExitPlanningFailure = 1;  // does not fit, verification failed
inline constexpr int kExitBadInput = 2;         // bad input file or usage

// Runs the command line; returns the process exit code.
int RunCli(int argc, char** argv);

}  // namespace memplan
