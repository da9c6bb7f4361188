#include "redis/ProcessArguments.h"

#include "redis/ConnectionOptions.h"

#include <cstring>
#include <string_view>

namespace keylens::redis {

namespace {

int processArgc = 0;
char** processArgv = nullptr;

void blank(char* from, std::size_t length)
{
    std::memset(from, 'x', length);
}

// Hides the user-info of a URI argument (see userInfoRange); true if there was any.
bool hideUserInfo(char* argument)
{
    const QByteArrayView text(argument);
    const auto range = userInfoRange(text);
    if (!range || range->second <= range->first)
        return false;
    // Without a scheme, `name@host` (a --match value, an email) holds no password; `u:secret@host` may.
    if (range->first == 0 && !text.first(range->second).contains(':'))
        return false;
    blank(argument + range->first, std::size_t(range->second - range->first));
    return true;
}

bool isPasswordFlag(std::string_view argument)
{
    return argument == "-a" || argument == "--pass";
}

} // namespace

void rememberProcessArguments(int argc, char** argv)
{
    processArgc = argc;
    processArgv = argv;
}

bool hidePasswordsInProcessArguments()
{
    bool found = false;
    for (int i = 1; i < processArgc; ++i) {
        char* argument = processArgv[i];
        const std::string_view text(argument);
        if (isPasswordFlag(text) && i + 1 < processArgc) {
            blank(processArgv[i + 1], std::strlen(processArgv[i + 1]));
            found = true;
            ++i;
        } else if (text.starts_with("--pass=") || text.starts_with("-a=")) {
            const std::size_t value = text.find('=') + 1;
            blank(argument + value, text.size() - value);
            found = true;
        } else if (text.size() > 2 && text.starts_with("-a") && text[2] != '-') {
            blank(argument + 2, text.size() - 2); // -aSECRET, as getopt-style tools accept it
            found = true;
        } else if (!text.starts_with('-') || text.find("://") != std::string_view::npos) {
            found = hideUserInfo(argument) || found;
        }
    }
    return found;
}

} // namespace keylens::redis
