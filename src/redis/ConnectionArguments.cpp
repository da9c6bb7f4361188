#include "redis/ConnectionArguments.h"

#include "redis/ProcessArguments.h"

#include <QFile>
#include <QFileInfo>

namespace keylens::redis {

namespace {

Error usage(const QString& message)
{
    return {ErrorKind::Usage, message};
}

bool parseSeconds(const QString& text, int* milliseconds)
{
    bool ok = false;
    const double seconds = text.toDouble(&ok);
    if (!ok || seconds <= 0 || seconds > 86400)
        return false;
    *milliseconds = static_cast<int>(seconds * 1000.0 + 0.5);
    return true;
}

// --tls and the flags that only mean something with it, which are refused without it rather than ignored.
Status applyTlsFlags(const QCommandLineParser& parser, TlsOptions* tls)
{
    if (parser.isSet(QStringLiteral("tls")))
        tls->enabled = true;
    const std::pair<const char*, QString*> files[] = {
        {"cacert", &tls->caCertFile}, {"cacertdir", &tls->caCertDir}, {"cert", &tls->certFile},
        {"key", &tls->keyFile},       {"sni", &tls->serverName},
    };
    QStringList withoutTls;
    for (const auto& [name, field] : files) {
        if (!parser.isSet(QLatin1String(name)))
            continue;
        *field = parser.value(QLatin1String(name));
        withoutTls << QStringLiteral("--") + QLatin1String(name);
    }
    if (parser.isSet(QStringLiteral("insecure"))) {
        tls->insecure = true;
        withoutTls << QStringLiteral("--insecure");
    }
    if (!tls->enabled && !withoutTls.isEmpty())
        return usage(QStringLiteral("%1 only applies with --tls or a rediss:// URI").arg(withoutTls.join(u' ')));
    // A file that is not there is a typo on the command line; one that holds no certificate shows when connecting.
    for (const QString* file : {&tls->caCertFile, &tls->certFile, &tls->keyFile}) {
        if (!file->isEmpty() && !QFileInfo(*file).isReadable())
            return usage(QStringLiteral("cannot read %1").arg(*file));
    }
    if (!tls->caCertDir.isEmpty() && !QFileInfo(tls->caCertDir).isDir())
        return usage(QStringLiteral("%1 is not a directory").arg(tls->caCertDir));
    if (tls->certFile.isEmpty() != tls->keyFile.isEmpty())
        return usage(QStringLiteral("--cert and --key go together: a client certificate needs its key"));
    return {};
}

// --ssh and the flags that only mean something with it.
Status applySshFlags(const QCommandLineParser& parser, SshOptions* ssh)
{
    if (parser.isSet(QStringLiteral("ssh"))) {
        if (Status parsed = parseSshDestination(parser.value(QStringLiteral("ssh")).toUtf8(), ssh); !parsed)
            return parsed;
    }
    const std::pair<const char*, QString*> files[] = {{"ssh-identity", &ssh->identityFile},
                                                      {"ssh-known-hosts", &ssh->knownHostsFile}};
    for (const auto& [name, field] : files) {
        if (!parser.isSet(QLatin1String(name)))
            continue;
        if (!ssh->enabled())
            return usage(QStringLiteral("--%1 only applies with --ssh").arg(QLatin1String(name)));
        *field = parser.value(QLatin1String(name));
        if (!QFileInfo(*field).isReadable())
            return usage(QStringLiteral("cannot read %1").arg(*field));
    }
    return {};
}

} // namespace

QList<QCommandLineOption> connectionOptions()
{
    return {
        {QStringList{QStringLiteral("h"), QStringLiteral("host")}, QStringLiteral("Server host (default 127.0.0.1)."),
         QStringLiteral("host")},
        {QStringList{QStringLiteral("p"), QStringLiteral("port")}, QStringLiteral("Server port (default 6379)."),
         QStringLiteral("port")},
        {QStringList{QStringLiteral("a"), QStringLiteral("pass")},
         QStringLiteral("Password (the REDISCLI_AUTH environment variable is safer)."), QStringLiteral("password")},
        {QStringLiteral("pass-file"),
         QStringLiteral("Read the password from the first line of this file (kept out of the process's arguments)."),
         QStringLiteral("file")},
        {QStringLiteral("askpass"), QStringLiteral("Ask for the password (not echoed) instead of taking it from -a.")},
        {QStringLiteral("user"), QStringLiteral("ACL user name."), QStringLiteral("name")},
        {QStringLiteral("n"), QStringLiteral("Database number."), QStringLiteral("db")},
        {QStringLiteral("s"), QStringLiteral("Unix socket path (overrides host and port)."), QStringLiteral("socket")},
        {QStringLiteral("u"),
         QStringLiteral("Server URI: redis://[user[:password]@]host[:port][/db] or "
                        "unix:///path/redis.sock[?db=N]."),
         QStringLiteral("uri")},
        {QStringLiteral("t"), QStringLiteral("Connect timeout in seconds (default 5)."), QStringLiteral("seconds")},
        {QStringLiteral("command-timeout"), QStringLiteral("Longest wait for a reply, in seconds (default 30)."),
         QStringLiteral("seconds")},
        {QStringLiteral("no-auth-warning"),
         QStringLiteral("Do not warn that a password on the command line may be seen by others.")},
        {QStringLiteral("tls"), QStringLiteral("Connect over TLS (as a rediss:// URI does).")},
        {QStringLiteral("cacert"), QStringLiteral("With --tls: trust the CA certificates in this PEM file."),
         QStringLiteral("file")},
        {QStringLiteral("cacertdir"), QStringLiteral("With --tls: trust the CA certificates in this directory."),
         QStringLiteral("dir")},
        {QStringLiteral("cert"), QStringLiteral("With --tls: the client certificate (PEM), for a server that asks."),
         QStringLiteral("file")},
        {QStringLiteral("key"), QStringLiteral("With --tls: the client certificate's private key (PEM)."),
         QStringLiteral("file")},
        {QStringLiteral("sni"),
         QStringLiteral("With --tls: the server name to send and to check the certificate "
                        "against (default: the host)."),
         QStringLiteral("name")},
        {QStringLiteral("insecure"),
         QStringLiteral("With --tls: do not check the server's certificate (only for servers you trust anyway).")},
        {QStringLiteral("ssh"),
         QStringLiteral("Reach the server through an SSH tunnel from this SSH server (the host and port are then as "
                        "it sees them)."),
         QStringLiteral("[user@]host[:port]")},
        {QStringLiteral("ssh-identity"),
         QStringLiteral("With --ssh: log in with this private key (default: the agent and ssh's own keys)."),
         QStringLiteral("file")},
        {QStringLiteral("ssh-known-hosts"),
         QStringLiteral("With --ssh: check the SSH server's host key against this file (default: ssh's own)."),
         QStringLiteral("file")},
        {QStringLiteral("read-only"),
         QStringLiteral("Refuse every command that could change the data or the server, before it is sent.")},
    };
}

bool connectionArgumentsGiven(const QCommandLineParser& parser, bool databaseToo)
{
    for (const char* name : {"h", "p", "s", "u", "a", "user", "pass-file", "askpass", "ssh"}) {
        if (parser.isSet(QLatin1String(name)))
            return true;
    }
    return databaseToo && parser.isSet(QStringLiteral("n"));
}

bool anyConnectionFlagGiven(const QCommandLineParser& parser, bool databaseToo)
{
    for (const char* name : {"ssh-identity", "ssh-known-hosts", "t", "command-timeout", "tls", "cacert", "cacertdir",
                             "cert", "key", "sni", "insecure"}) {
        if (parser.isSet(QLatin1String(name)))
            return true;
    }
    return connectionArgumentsGiven(parser, databaseToo);
}

QString hidePasswordsGivenOnCommandLine(const QCommandLineParser& parser)
{
    if (!passwordWasOnCommandLine() || parser.isSet(QStringLiteral("no-auth-warning")))
        return {};
    // redis-cli's own words, which scripts and people already know; then where a password is safe. It sits in argv
    // until main() scrubs it (a few milliseconds), long enough for `ps` to see.
    return QStringLiteral("Warning: Using a password with '-a' or '-u' option on the command line interface may not be "
                          "safe. Use --pass-file FILE or the REDISCLI_AUTH environment variable instead "
                          "(--no-auth-warning hides this).");
}

Result<int> databaseArgument(const QCommandLineParser& parser, int otherwise)
{
    if (!parser.isSet(QStringLiteral("n")))
        return otherwise;
    bool ok = false;
    const int db = parser.value(QStringLiteral("n")).toInt(&ok);
    if (!ok || db < 0)
        return usage(QStringLiteral("-n takes a database number, not '%1'").arg(parser.value(QStringLiteral("n"))));
    return db;
}

Result<ConnectionOptions> connectionOptionsFrom(const QCommandLineParser& parser, const QString& positionalUri,
                                                const QProcessEnvironment& environment,
                                                const PasswordPrompt& askPassword)
{
    QString uri = parser.isSet(QStringLiteral("u")) ? parser.value(QStringLiteral("u")) : positionalUri;
    const bool placeGiven =
        parser.isSet(QStringLiteral("h")) || parser.isSet(QStringLiteral("p")) || parser.isSet(QStringLiteral("s"));
    if (uri.isEmpty() && !placeGiven)
        uri = environment.value(QStringLiteral("REDIS_URL"));

    ConnectionOptions options;
    if (!uri.isEmpty()) {
        Result<ConnectionOptions> parsed = parseRedisUri(uri.toUtf8());
        if (!parsed)
            return parsed.error();
        options = *parsed;
    }

    if (parser.isSet(QStringLiteral("h"))) {
        options.host = parser.value(QStringLiteral("h"));
        options.transport = ConnectionOptions::Transport::Tcp;
    }
    if (parser.isSet(QStringLiteral("p"))) {
        bool ok = false;
        const uint port = parser.value(QStringLiteral("p")).toUInt(&ok);
        if (!ok || port == 0 || port > 65535)
            return usage(QStringLiteral("-p takes a port number, not '%1'").arg(parser.value(QStringLiteral("p"))));
        options.port = static_cast<quint16>(port);
        options.transport = ConnectionOptions::Transport::Tcp;
    }
    if (parser.isSet(QStringLiteral("s"))) {
        options.socketPath = parser.value(QStringLiteral("s"));
        options.transport = ConnectionOptions::Transport::Unix;
    }
    Result<int> db = databaseArgument(parser, options.db);
    if (!db)
        return db.error();
    options.db = *db;
    if (parser.isSet(QStringLiteral("user")))
        options.user = parser.value(QStringLiteral("user")).toUtf8();
    const int passwordSources = int(parser.isSet(QStringLiteral("a"))) +
                                int(parser.isSet(QStringLiteral("pass-file"))) +
                                int(parser.isSet(QStringLiteral("askpass")));
    if (passwordSources > 1)
        return usage(QStringLiteral("give the password one way: -a, --pass-file or --askpass"));
    if (parser.isSet(QStringLiteral("a"))) {
        options.password = parser.value(QStringLiteral("a")).toUtf8();
        options.hasPassword = true;
    } else if (parser.isSet(QStringLiteral("pass-file"))) {
        QFile file(parser.value(QStringLiteral("pass-file")));
        if (!file.open(QIODevice::ReadOnly))
            return usage(
                QStringLiteral("cannot read the password file %1: %2").arg(file.fileName(), file.errorString()));
        QByteArray line = file.readLine();
        while (line.endsWith('\n') || line.endsWith('\r'))
            line.chop(1);
        options.password = line;
        options.hasPassword = true;
    } else if (parser.isSet(QStringLiteral("askpass"))) {
        if (!askPassword)
            return usage(QStringLiteral("--askpass needs somewhere to ask"));
        const std::optional<QByteArray> typed = askPassword();
        if (!typed)
            return usage(QStringLiteral("no password was given"));
        options.password = *typed;
        options.hasPassword = true;
    } else if (!options.hasPassword && environment.contains(QStringLiteral("REDISCLI_AUTH"))) {
        options.password = environment.value(QStringLiteral("REDISCLI_AUTH")).toUtf8();
        options.hasPassword = true;
    }
    if (parser.isSet(QStringLiteral("t")) &&
        !parseSeconds(parser.value(QStringLiteral("t")), &options.connectTimeoutMs))
        return usage(QStringLiteral("-t takes a timeout in seconds, not '%1'").arg(parser.value(QStringLiteral("t"))));
    if (parser.isSet(QStringLiteral("command-timeout")) &&
        !parseSeconds(parser.value(QStringLiteral("command-timeout")), &options.commandTimeoutMs))
        return usage(QStringLiteral("--command-timeout takes seconds, not '%1'")
                         .arg(parser.value(QStringLiteral("command-timeout"))));
    if (!options.user.isEmpty() && !options.hasPassword)
        return usage(QStringLiteral("--user needs a password: give -a, REDISCLI_AUTH, or a URI with one"));
    if (parser.isSet(QStringLiteral("read-only")))
        options.readOnly = true;
    if (Status tls = applyTlsFlags(parser, &options.tls); !tls)
        return tls.error();
    if (Status ssh = applySshFlags(parser, &options.ssh); !ssh)
        return ssh.error();
    if (options.ssh.enabled() && options.transport == ConnectionOptions::Transport::Unix)
        return usage(QStringLiteral("an SSH tunnel leads to a TCP port: give -h and -p (as the SSH server sees the "
                                    "server), not a socket"));
    if (options.tls.enabled && options.transport == ConnectionOptions::Transport::Unix)
        return usage(QStringLiteral("TLS is for TCP ports: a Unix socket is not encrypted (drop --tls, or give -h "
                                    "and -p)"));
    return options;
}

} // namespace keylens::redis
