#include "redis/ProcessArguments.h"

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

// Hides what lies between the scheme and the last '@' of a URI-like argument; true if there was any.
bool hideUserInfo(char* argument)
{
    const std::string_view text(argument);
    const std::size_t at = text.rfind('@');
    if (at == std::string_view::npos)
        return false;
    std::size_t start = 0;
    if (const std::size_t scheme = text.find("://"); scheme != std::string_view::npos && scheme < at)
        start = scheme + 3;
    else if (text.find(':') == std::string_view::npos || text.find(':') > at)
        return false; // `name@host` with no scheme and no ':' before '@' holds no password
    if (at <= start)
        return false;
    blank(argument + start, at - start);
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
