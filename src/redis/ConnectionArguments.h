#pragma once

#include "redis/ConnectionOptions.h"

#include <QCommandLineParser>
#include <QProcessEnvironment>
#include <QStringList>

#include <functional>
#include <optional>

namespace keylens::redis {

// The redis-cli connection flags, shared by keylens-cli and keylens:
//   -h HOST  -p PORT  -a PASSWORD  --user NAME  -n DB  -s SOCKET  -u URI  -t SECONDS  --command-timeout SECONDS
//   --tls --cacert FILE --cacertdir DIR --cert FILE --key FILE --sni NAME --insecure,
//   --ssh [user@]host[:port] --ssh-identity FILE --ssh-known-hosts FILE, and --read-only
// Does not add -h as help: like redis-cli, -h is the host.
QList<QCommandLineOption> connectionOptions();

// Whether any flag that says where or as whom to connect was given (-h -p -s -u -a -n --user); the
// timeouts alone do not count. keylens opens its connection dialog when none was. `databaseToo` false: -n does not
// count either (an RDB file has databases too).
bool connectionArgumentsGiven(const QCommandLineParser& parser, bool databaseToo = true);
// The same, and the timeouts, TLS and SSH details too: every flag a source without a server (an RDB file) would
// ignore, and so refuses.
bool anyConnectionFlagGiven(const QCommandLineParser& parser, bool databaseToo = true);

// -n's database, checked (a usage error when it is no database number); `otherwise` when -n was not given.
Result<int> databaseArgument(const QCommandLineParser& parser, int otherwise);

// Overwrites the passwords of the process's argv (see ProcessArguments.h) once the parser has read them,
// and returns the warning redis-cli gives for them, or nothing when none was given or --no-auth-warning.
QString hidePasswordsGivenOnCommandLine(const QCommandLineParser& parser);

// Asks the user for a password (--askpass): nothing when they gave none.
using PasswordPrompt = std::function<std::optional<QByteArray>()>;

// Resolves the flags after parser.process()/parse(), as redis-cli does: a URI (from -u or the first
// positional argument) is the base, explicit flags override it, the password comes from -a, --pass-file FILE or
// --askpass (the prompt), else REDISCLI_AUTH, and with no URI, host, port or socket at all, REDIS_URL, else
// 127.0.0.1:6379.
Result<ConnectionOptions> connectionOptionsFrom(const QCommandLineParser& parser, const QString& positionalUri,
                                                const QProcessEnvironment& environment,
                                                const PasswordPrompt& askPassword = {});

} // namespace keylens::redis
