// `keylens-cli scan` against `keylens-cli lint` on the same demo keyspace (1M keys by default): wall
// time and peak RSS of each, interleaved, the median of --runs (for time, of each round's lint-to-scan ratio). The
// floors: lint adds at most 15% time and at most 10 bytes of peak RSS per key. The client's CPU time is shown too:
// the server and the client share two cores, so the wall time a lint adds is its CPU competing with the server's.
#include "BenchOptions.h"
#include "DemoServer.h"
#include "Median.h"
#include "ProcessStats.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace keylens;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = QCoreApplication::arguments();
    const std::uint64_t keys = std::max<std::uint64_t>(1000, numberOption(arguments, "--keys", 1'000'000));
    const int runs = int(std::max<std::uint64_t>(1, numberOption(arguments, "--runs", 7)));

    demo::RedisServerProcess server;
    double seeding = 0;
    if (!startDemoServer(server, keys, {}, &seeding))
        return 1;
    std::printf("Keyspace: %llu keys of the demo mix, seeded in %.1f s\n\n", static_cast<unsigned long long>(keys),
                seeding);

    const QStringList connection = {QStringLiteral("-p"), QString::number(server.port())};
    const QStringList scan = QStringList{QStringLiteral("scan")} + connection +
                             QStringList{QStringLiteral("--format"), QStringLiteral("json")};
    const QStringList lint = QStringList{QStringLiteral("lint")} + connection +
                             QStringList{QStringLiteral("--format"), QStringLiteral("json"),
                                         QStringLiteral("--fail-on"), QStringLiteral("never")};
    runMeasured(QStringLiteral(KEYLENS_CLI_PATH), scan); // warms the server
    std::vector<double> scanSeconds, lintSeconds, scanCpu, lintCpu, scanRss, lintRss;
    bool rssKnown = true;
    for (int run = 0; run < runs; ++run) {
        // Every other round runs the lint first: whatever the run before leaves behind (a server's freed memory, the
        // page cache, a neighbour's burst that fades) falls on each command as often.
        const bool lintFirst = run % 2 == 1;
        for (const bool linting : {lintFirst, !lintFirst}) {
            const ProcessRun measured = runMeasured(QStringLiteral(KEYLENS_CLI_PATH), linting ? lint : scan);
            if (measured.exitCode != 0) {
                std::fprintf(stderr, "keylens-cli %s exited with %d\n", linting ? "lint" : "scan", measured.exitCode);
                return 1;
            }
            rssKnown &= measured.peakRssKnown();
            (linting ? lintSeconds : scanSeconds).push_back(measured.seconds);
            (linting ? lintCpu : scanCpu).push_back(measured.cpuSeconds);
            (linting ? lintRss : scanRss).push_back(double(measured.peakRssKb));
        }
    }
    // Each round runs the scan and the lint on the same server, one after the other: their ratio is paired, so that a
    // round the shared machine ran slow as a whole (two cores for the server and the client, other tenants) does not
    // count as lint's cost. The verdict is the median of the rounds' ratios.
    std::vector<double> ratios;
    std::printf("%-8s %10s %10s %10s %12s %12s\n", "round", "scan s", "lint s", "lint adds", "scan CPU s",
                "lint CPU s");
    for (std::size_t round = 0; round < scanSeconds.size(); ++round) {
        ratios.push_back(lintSeconds[round] / scanSeconds[round]);
        std::printf("%-8zu %10.2f %10.2f %9.1f%% %12.2f %12.2f\n", round + 1, scanSeconds[round], lintSeconds[round],
                    (ratios.back() - 1.0) * 100.0, scanCpu[round], lintCpu[round]);
    }
    std::printf("\n");
    const double scanTime = median(scanSeconds), lintTime = median(lintSeconds);
    const double extraTime = (median(ratios) - 1.0) * 100.0;
    const double extraBytesPerKey = (median(lintRss) - median(scanRss)) * 1024.0 / double(keys);
    std::printf("%-22s %10s %10s %14s\n", "median of runs", "seconds", "CPU s", "peak RSS MiB");
    std::printf("%-22s %10.2f %10.2f %14.1f\n", "keylens-cli scan", scanTime, median(scanCpu),
                median(scanRss) / 1024.0);
    std::printf("%-22s %10.2f %10.2f %14.1f\n", "keylens-cli lint", lintTime, median(lintCpu),
                median(lintRss) / 1024.0);
    std::printf("\nlint adds %.1f%% time, the median of the rounds (floor 15%%): %s\n", extraTime,
                extraTime <= 15.0 ? "ok" : "FAIL");
    std::printf("lint adds %.1f bytes of peak RSS per key (floor 10): %s%s\n", extraBytesPerKey,
                extraBytesPerKey <= 10.0 ? "ok" : "FAIL", rssKnown ? "" : " (a peak was below the bench's own RSS)");
    return extraTime <= 15.0 && extraBytesPerKey <= 10.0 ? 0 : 1;
}
