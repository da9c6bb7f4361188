#include "cli/PasswordPrompt.h"

#include <cstdio>
#include <string>
#include <termios.h>
#include <unistd.h>

namespace keylens::cli {

namespace {

std::optional<QByteArray> readLine()
{
    std::string line;
    for (int c = std::fgetc(stdin); c != EOF; c = std::fgetc(stdin)) {
        if (c == '\n')
            return QByteArray::fromStdString(line);
        line.push_back(char(c));
    }
    if (line.empty())
        return std::nullopt;
    return QByteArray::fromStdString(line);
}

} // namespace

std::optional<QByteArray> askPasswordOnTerminal()
{
    if (!isatty(STDIN_FILENO))
        return readLine();
    std::fputs("Password: ", stderr);
    std::fflush(stderr);
    termios saved{};
    const bool canHide = tcgetattr(STDIN_FILENO, &saved) == 0;
    if (canHide) {
        termios hidden = saved;
        hidden.c_lflag &= ~tcflag_t(ECHO);
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden);
    }
    std::optional<QByteArray> typed = readLine();
    if (canHide)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    std::fputc('\n', stderr);
    if (typed && typed->endsWith('\r'))
        typed->chop(1);
    return typed;
}

} // namespace keylens::cli
