#include "redis/SshTunnel.h"

#include "redis/ChildProcess.h"

#include <QElapsedTimer>
#include <QList>

#include <arpa/inet.h>
#include <map>
#include <mutex>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace keylens::redis {

namespace {

constexpr int TriesForAPort = 3; // another program may take the free port before ssh listens on it

sockaddr_in loopback(quint16 port)
{
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

// A port nobody listens on right now, as the kernel hands them out.
std::optional<quint16> freeLoopbackPort()
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return std::nullopt;
    sockaddr_in address = loopback(0);
    socklen_t length = sizeof address;
    std::optional<quint16> port;
    if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    close(fd);
    return port;
}

// ssh opens its local port once it has logged in: the first connection accepted there means the tunnel is up.
bool accepts(quint16 port)
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    const sockaddr_in address = loopback(port);
    const bool accepted = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
    close(fd);
    return accepted;
}

QList<QByteArray> meaningfulLines(const QByteArray& log)
{
    QList<QByteArray> lines;
    for (QByteArray line : log.split('\n')) {
        line = line.trimmed();
        // ssh's banner of at-signs around a changed host key, and its notes on keys it has just added.
        if (line.isEmpty() || line.startsWith("@@@") || line.startsWith("Warning: Permanently added"))
            continue;
        lines << line;
    }
    return lines;
}

QString joinedTail(const QList<QByteArray>& lines, qsizetype count)
{
    QStringList texts;
    for (qsizetype i = std::max<qsizetype>(0, lines.size() - count); i < lines.size(); ++i)
        texts << QString::fromUtf8(lines[i]);
    return texts.join(QStringLiteral("; "));
}

// What ssh's log says went wrong, as a clause a user can act on.
QString sshFailureReason(const SshOptions& ssh, const QByteArray& log)
{
    const QList<QByteArray> lines = meaningfulLines(log);
    if (log.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"))
        return QStringLiteral("the SSH server's host key is not the one known_hosts holds for it (someone may be "
                              "intercepting the connection, or the server was reinstalled); nothing was sent. Check "
                              "the new key with its administrator, then remove the old one (ssh-keygen -R %1%2)")
            .arg(ssh.port == 22 ? ssh.host : QStringLiteral("'[%1]:%2'").arg(ssh.host).arg(ssh.port),
                 ssh.knownHostsFile.isEmpty() ? QString() : QStringLiteral(" -f ") + ssh.knownHostsFile);
    if (log.contains("Host key verification failed"))
        return QStringLiteral("the SSH server's host key is not in known_hosts, so it cannot be checked; connect once "
                              "with ssh in a terminal to check and accept it (%1)")
            .arg(joinedTail(lines, 2));
    if (log.contains("Permission denied"))
        return QStringLiteral("the SSH server refused the login (%1); load the key into ssh-agent (a key with a "
                              "passphrase needs it: Keylens never asks for one) or choose its identity file")
            .arg(joinedTail(lines, 1));
    if (lines.isEmpty())
        return QStringLiteral("ssh ended without saying why");
    return joinedTail(lines, 3);
}

QString tunnelKey(const SshOptions& ssh, const QString& host, quint16 port)
{
    return QStringList{ssh.host, QString::number(ssh.port), ssh.user, ssh.identityFile, ssh.knownHostsFile,
                       host,     QString::number(port)}
        .join(QChar(0));
}

} // namespace

QStringList sshTunnelArguments(const SshOptions& ssh, const QString& host, quint16 port, quint16 localPort,
                               int timeoutMs)
{
    QStringList arguments{
        QStringLiteral("-N"), // no remote command: only the forward
        QStringLiteral("-T"),
        // Never prompt (there is no terminal to ask in): an unknown or changed host key and a key that needs a
        // passphrase fail, with a message, instead of hanging.
        QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
        // A port that cannot be forwarded ends ssh instead of leaving a tunnel that leads nowhere.
        QStringLiteral("-o"), QStringLiteral("ExitOnForwardFailure=yes"), QStringLiteral("-o"),
        QStringLiteral("ConnectTimeout=%1").arg(std::max(1, (timeoutMs + 999) / 1000)),
        // A tunnel whose SSH server vanished is noticed within 45 s and ends, so connections through it fail.
        QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=15"), QStringLiteral("-o"),
        QStringLiteral("ServerAliveCountMax=3"),
        // A shared master connection would keep the forward after this ssh ends: the tunnel must end with it.
        QStringLiteral("-o"), QStringLiteral("ControlMaster=no"), QStringLiteral("-o"),
        QStringLiteral("ControlPath=none"),
        // LogLevel stays at INFO: a channel the SSH server could not open is logged at that level.
        QStringLiteral("-p"), QString::number(ssh.port), QStringLiteral("-L"),
        QStringLiteral("127.0.0.1:%1:%2").arg(localPort).arg(hostPortText(host, port))};
    if (!ssh.identityFile.isEmpty())
        arguments << QStringLiteral("-i") << ssh.identityFile;
    if (!ssh.knownHostsFile.isEmpty())
        arguments << QStringLiteral("-o") << QStringLiteral("UserKnownHostsFile=") + ssh.knownHostsFile;
    if (!ssh.user.isEmpty())
        arguments << QStringLiteral("-l") << ssh.user;
    arguments << QStringLiteral("--") << ssh.host;
    return arguments;
}

QString explainSshFailure(const SshOptions& ssh, const QByteArray& log)
{
    return QStringLiteral("SSH tunnel through %1: %2").arg(ssh.destination(), sshFailureReason(ssh, log));
}

SshTunnel::SshTunnel(SshOptions ssh, std::unique_ptr<ChildProcess> process, quint16 localPort)
    : m_ssh(std::move(ssh))
    , m_process(std::move(process))
    , m_localPort(localPort)
{}

SshTunnel::~SshTunnel() = default; // ~ChildProcess stops ssh

qsizetype SshTunnel::logSize() const
{
    return m_process->errorOutputSize();
}

QString SshTunnel::failureSince(qsizetype mark) const
{
    if (!m_process->isRunning())
        return QStringLiteral("the SSH tunnel through %1 ended: %2")
            .arg(m_ssh.destination(), sshFailureReason(m_ssh, m_process->errorOutput()));
    // ssh logs "channel 2: open failed: connect failed: Connection refused" when the SSH server could not open its
    // side, then closes our socket.
    constexpr QByteArrayView OpenFailed = "open failed: ";
    for (const QByteArray& line : meaningfulLines(m_process->errorOutput(mark))) {
        const qsizetype at = line.indexOf(OpenFailed);
        if (at >= 0)
            return QStringLiteral("the SSH server %1 could not reach it (%2)")
                .arg(m_ssh.destination(), QString::fromUtf8(line.sliced(at + OpenFailed.size())));
    }
    return {};
}

Result<std::shared_ptr<SshTunnel>> SshTunnel::start(const SshOptions& ssh, const QString& host, quint16 port,
                                                    int timeoutMs, const std::atomic<bool>* cancel)
{
    const int limitMs = std::max(10'000, 2 * timeoutMs);
    for (int attempt = 1;; ++attempt) {
        const std::optional<quint16> localPort = freeLoopbackPort();
        if (!localPort)
            return Error{ErrorKind::Unsupported, QStringLiteral("no free local port for an SSH tunnel")};
        Result<std::unique_ptr<ChildProcess>> process =
            ChildProcess::start(QStringLiteral("ssh"), sshTunnelArguments(ssh, host, port, *localPort, timeoutMs));
        if (!process)
            return Error{
                process.error().kind,
                QStringLiteral("cannot open an SSH tunnel: %1 (install openssh-client)").arg(process.error().message)};
        QElapsedTimer clock;
        clock.start();
        for (;;) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return Error{
                    ErrorKind::Cancelled,
                    QStringLiteral("cancelled while opening the SSH tunnel through %1").arg(ssh.destination())};
            if (!(*process)->isRunning())
                break;
            if (accepts(*localPort))
                return std::shared_ptr<SshTunnel>(new SshTunnel(ssh, std::move(*process), *localPort));
            if (clock.elapsed() > limitMs) {
                const QList<QByteArray> lines = meaningfulLines((*process)->errorOutput());
                return Error{ErrorKind::Timeout,
                             QStringLiteral("SSH tunnel through %1: not up within %2 s%3")
                                 .arg(ssh.destination())
                                 .arg(limitMs / 1000)
                                 .arg(lines.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(joinedTail(lines, 2)))};
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        const QByteArray log = (*process)->errorOutput();
        const bool portTaken = log.contains("Address already in use") || log.contains("cannot listen to port");
        if (!portTaken || attempt == TriesForAPort)
            return Error{ErrorKind::Tunnel, explainSshFailure(ssh, log)};
    }
}

Result<std::shared_ptr<SshTunnel>> SshTunnel::acquire(const SshOptions& ssh, const QString& host, quint16 port,
                                                      int timeoutMs, const std::atomic<bool>* cancel)
{
    struct Pool
    {
        std::mutex mutex;
        std::map<QString, std::weak_ptr<SshTunnel>> tunnels;
    };
    // Never destroyed: a connection may end its tunnel while static destructors run at exit.
    static Pool* pool = new Pool;
    // Held while a tunnel starts, so two connections opened at once share one login.
    std::lock_guard lock(pool->mutex);
    const QString key = tunnelKey(ssh, host, port);
    if (std::shared_ptr<SshTunnel> running = pool->tunnels[key].lock(); running && running->m_process->isRunning())
        return running;
    Result<std::shared_ptr<SshTunnel>> started = start(ssh, host, port, timeoutMs, cancel);
    if (started)
        pool->tunnels[key] = *started;
    else
        pool->tunnels.erase(key);
    return started;
}

} // namespace keylens::redis
