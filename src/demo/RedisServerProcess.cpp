#include "demo/RedisServerProcess.h"

#include "redis/ChildEnvironment.h"
#include "redis/Connection.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QStandardPaths>
#include <QTcpServer>
#include <QThread>

#include <csignal>
#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#endif

namespace keylens::demo {

namespace {

quint16 freeLoopbackPort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

redis::Error environmentError(const QString& message)
{
    return {redis::ErrorKind::Refused, message};
}

} // namespace

RedisServerProcess::RedisServerProcess() = default;

RedisServerProcess::~RedisServerProcess()
{
    stop();
}

QString RedisServerProcess::findExecutable()
{
    return QStandardPaths::findExecutable(QStringLiteral("redis-server"));
}

redis::Status RedisServerProcess::start(const Options& options)
{
    if (findExecutable().isEmpty())
        return environmentError(QStringLiteral("redis-server was not found on PATH; install it with "
                                               "'sudo apt-get install redis-server' (Debian package redis-server)"));
    m_directory = std::make_unique<QTemporaryDir>();
    if (!m_directory->isValid())
        return environmentError(
            QStringLiteral("cannot create a temporary directory: %1").arg(m_directory->errorString()));
    if (options.survivesUs)
        m_directory->setAutoRemove(false);
    // Another process may take the port between our probe and the server's bind: only that is retried.
    redis::Status status;
    if (options.port != 0) {
        // The caller's port: one attempt, and a clear word when something else has it.
        status = startOnce(options, options.port);
        if (!status) {
            stop();
            if (status.error().message.contains(QStringLiteral("Address already in use")))
                return environmentError(QStringLiteral("port %1 is in use").arg(options.port));
        }
        return status;
    }
    for (int attempt = 0; attempt < 5; ++attempt) {
        const quint16 port = freeLoopbackPort();
        if (port == 0)
            return environmentError(QStringLiteral("no free loopback port"));
        status = startOnce(options, port);
        if (status)
            return status;
        stop();
        if (!status.error().message.contains(QStringLiteral("Address already in use")))
            break;
    }
    return status;
}

redis::Status RedisServerProcess::startOnce(const Options& options, quint16 port)
{
    QStringList arguments;
    if (!options.configText.isEmpty()) {
        QFile config(m_directory->filePath(QStringLiteral("redis.conf")));
        if (!config.open(QIODevice::WriteOnly) || config.write(options.configText) != options.configText.size())
            return environmentError(QStringLiteral("cannot write %1").arg(config.fileName()));
        arguments << config.fileName();
    }
    const QString dataDirectory = options.rdbDirectory.isEmpty() ? m_directory->path() : options.rdbDirectory;
    arguments << QStringLiteral("--port") << QString::number(port) << QStringLiteral("--bind")
              << QStringLiteral("127.0.0.1") << QStringLiteral("--save") << QString() << QStringLiteral("--appendonly")
              << QStringLiteral("no") << QStringLiteral("--daemonize") << QStringLiteral("no")
              << QStringLiteral("--dir") << dataDirectory << QStringLiteral("--logfile")
              << m_directory->filePath(QStringLiteral("redis.log"));
    if (!options.rdbFilename.isEmpty())
        arguments << QStringLiteral("--dbfilename") << options.rdbFilename;
    arguments << options.extraArguments;
    m_port = port;

    if (options.survivesUs) {
        QProcess detached;
        detached.setProgram(findExecutable());
        detached.setArguments(arguments);
        detached.setWorkingDirectory(m_directory->path());
        detached.setProcessEnvironment(redis::childEnvironment());
        // Nothing of ours is inherited: a kept server holding our stdout would keep `keylens-cli demo --keep | tail`
        // waiting for an end of file forever. It logs to its own file.
        detached.setStandardInputFile(QProcess::nullDevice());
        detached.setStandardOutputFile(QProcess::nullDevice());
        detached.setStandardErrorFile(QProcess::nullDevice());
        if (!detached.startDetached())
            return environmentError(QStringLiteral("could not start %1").arg(findExecutable()));
    } else {
        m_process = std::make_unique<QProcess>();
        m_process->setProcessEnvironment(redis::childEnvironment());
        m_process->setProgram(findExecutable());
        m_process->setArguments(arguments);
        m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process->setStandardOutputFile(QProcess::nullDevice());
#ifdef Q_OS_LINUX
        // If we die without running destructors (a crash, SIGKILL), the kernel stops the server for us.
        m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
#endif
        m_process->start();
        if (!m_process->waitForStarted(5000))
            return environmentError(
                QStringLiteral("could not start %1: %2").arg(findExecutable(), m_process->errorString()));
    }
    return waitUntilReady(20000);
}

redis::Status RedisServerProcess::waitUntilReady(int timeoutMs)
{
    redis::ConnectionOptions options = connectionOptions();
    options.connectTimeoutMs = 500;
    options.commandTimeoutMs = 2000;
    QDeadlineTimer deadline(timeoutMs);
    QString lastProblem;
    while (!deadline.hasExpired()) {
        // Connection::open PINGs. A server still loading its RDB answers LOADING: keep waiting then. One
        // that asks for a password (configText may set one) has answered, so it is ready.
        auto connection = redis::Connection::open(options);
        if (connection)
            return {};
        const redis::ErrorKind kind = connection.error().kind;
        if (kind == redis::ErrorKind::AuthRequired || kind == redis::ErrorKind::AuthFailed)
            return {};
        lastProblem = connection.error().message;
        // Also how we notice an early exit: QProcess only updates its state while somebody waits on it.
        if (m_process ? m_process->waitForFinished(20) : (QThread::msleep(20), false))
            return environmentError(QStringLiteral("redis-server exited at start-up: %1").arg(logTail()));
    }
    return environmentError(QStringLiteral("redis-server did not become ready: %1; %2").arg(lastProblem, logTail()));
}

QString RedisServerProcess::logTail() const
{
    QFile log(m_directory ? m_directory->filePath(QStringLiteral("redis.log")) : QString());
    if (!log.open(QIODevice::ReadOnly))
        return QStringLiteral("(no log)");
    const QByteArray text = log.readAll().trimmed();
    const QList<QByteArray> lines = text.split('\n');
    QStringList tail;
    for (qsizetype i = std::max<qsizetype>(0, lines.size() - 3); i < lines.size(); ++i)
        tail << QString::fromUtf8(lines[i]).trimmed();
    return tail.join(QStringLiteral(" | "));
}

void RedisServerProcess::stop()
{
    if (m_process) {
        if (m_process->state() != QProcess::NotRunning) {
            m_process->terminate();
            if (!m_process->waitForFinished(5000)) {
                m_process->kill();
                m_process->waitForFinished(2000);
            }
        }
        m_process.reset();
    }
}

redis::ConnectionOptions RedisServerProcess::connectionOptions() const
{
    redis::ConnectionOptions options;
    options.host = QStringLiteral("127.0.0.1");
    options.port = m_port;
    return options;
}

QString RedisServerProcess::uri() const
{
    return connectionOptions().uriWithoutPassword();
}

QString RedisServerProcess::directory() const
{
    return m_directory ? m_directory->path() : QString();
}

qint64 RedisServerProcess::processId() const
{
    return m_process ? m_process->processId() : 0;
}

} // namespace keylens::demo
