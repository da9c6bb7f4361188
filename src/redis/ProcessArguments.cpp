#include "redis/ProcessArguments.h"

#include "redis/ConnectionOptions.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <sys/prctl.h>
#include <vector>

namespace keylens::redis {

namespace {

constexpr std::string_view Mask = "***";

bool passwordFound = false;

bool isPasswordFlag(std::string_view argument)
{
    return argument == "-a" || argument == "--pass";
}

// The argument as `ps` may show it: its secret, if any, replaced by the mask; nothing when it holds none.
// `nextIsSecret` says whether the argument after this one is a password (the value of -a).
std::optional<std::string> masked(std::string_view argument, bool* nextIsSecret)
{
    *nextIsSecret = false;
    if (isPasswordFlag(argument)) {
        *nextIsSecret = true;
        return std::nullopt;
    }
    if (argument.starts_with("--pass=") || argument.starts_with("-a="))
        return std::string(argument.substr(0, argument.find('=') + 1)) + std::string(Mask);
    if (argument.size() > 2 && argument.starts_with("-a") && argument[2] != '-')
        return "-a" + std::string(Mask); // -aSECRET, as getopt-style tools accept it
    if (argument.starts_with('-') && argument.find("://") == std::string_view::npos)
        return std::nullopt;
    const QByteArrayView text(argument.data(), qsizetype(argument.size()));
    const auto range = userInfoRange(text);
    if (!range || range->second <= range->first)
        return std::nullopt;
    // Without a scheme, `name@host` (a --match value, an email) holds no password; `u:secret@host` may.
    if (range->first == 0 && !text.first(range->second).contains(':'))
        return std::nullopt;
    return std::string(argument.substr(0, std::size_t(range->first))) + std::string(Mask) +
           std::string(argument.substr(std::size_t(range->second)));
}

} // namespace

char** scrubProcessArguments(int argc, char** argv)
{
    // Qt's copy, which lives as long as the process: QCoreApplication keeps pointers into it.
    static std::vector<std::string> copies;
    static std::vector<char*> pointers;
    copies.assign(argv, argv + argc);
    pointers.clear();
    for (std::string& copy : copies)
        pointers.push_back(copy.data());
    pointers.push_back(nullptr);

    std::string title;
    bool secret = false;
    for (int i = 0; i < argc; ++i) {
        std::string_view argument(argv[i]);
        std::string shown(argument);
        bool nextIsSecret = false;
        if (i > 0 && secret) {
            shown = Mask;
            passwordFound = true;
        } else if (i > 0) {
            if (std::optional<std::string> hidden = masked(argument, &nextIsSecret)) {
                shown = *hidden;
                passwordFound = true;
            }
        }
        secret = nextIsSecret;
        title += (i > 0 ? " " : "") + shown;
    }
    if (!passwordFound || argc < 1)
        return pointers.data();
    keepSecretsOutOfCoreDumps();

    // The argument strings lie one after another; the kernel reads them from the first to the end of the last.
    char* area = argv[0];
    char* end = argv[argc - 1] + std::strlen(argv[argc - 1]) + 1;
    for (int i = 1; i < argc; ++i) {
        if (argv[i] != argv[i - 1] + std::strlen(argv[i - 1]) + 1) {
            end = argv[i - 1] + std::strlen(argv[i - 1]) + 1; // not contiguous: rewrite the run that is
            break;
        }
    }
    const std::size_t room = std::size_t(end - area);
    if (room < 2)
        return pointers.data();
    // glibc's error messages name the program through this pointer into the area: give it the copy.
    program_invocation_name = pointers[0];
    const std::size_t shown = std::min(title.size(), room - 2);
    std::memcpy(area, title.data(), shown);
    std::memset(area + shown, 0, room - shown);
    // A last byte that is not NUL tells the kernel the area was rewritten as one title (what setproctitle does):
    // /proc/PID/cmdline then ends at the first NUL, and the stars' count says nothing of the secrets' length.
    area[room - 1] = ' ';
    // Other secrets in the area (arguments that were not contiguous) are blanked where they are.
    for (int i = 1; i < argc; ++i) {
        if (argv[i] >= area && argv[i] < end)
            continue;
        std::memset(argv[i], 'x', std::strlen(argv[i]));
    }
    return pointers.data();
}

bool passwordWasOnCommandLine()
{
    return passwordFound;
}

void keepSecretsOutOfCoreDumps()
{
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

} // namespace keylens::redis
