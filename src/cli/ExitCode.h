#pragma once

namespace keylens::cli {

// keylens-cli's exit codes; scripts depend on them. What each means is said once, for --help and the manual
// page alike, in cli::program() (Cli.cpp).
enum ExitCode : int {
    ExitOk = 0,
    ExitFailure = 1,
    ExitUsage = 2,
    ExitConnection = 3,
    ExitNotConfirmed = 4,
    ExitInterrupted = 130,
};

} // namespace keylens::cli
