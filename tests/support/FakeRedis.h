#pragma once

#include <QByteArray>
#include <QList>
#include <QTcpServer>
#include <QTcpSocket>

#include <functional>

namespace keylens::test {

// A RESP server of the test's own, on loopback, for answers no real server gives on demand (other
// versions' error wordings, a reason followed by a hang-up). `answer` gets each command's arguments and
// returns the raw reply bytes; an empty reply closes the connection. Served by the test thread's event
// loop, so the client must run elsewhere (a keylens-cli process, or a thread).
class FakeRedis : public QObject
{
public:
    using Answer = std::function<QByteArray(const QList<QByteArray>& command)>;

    explicit FakeRedis(Answer answer)
        : m_answer(std::move(answer))
    {
        m_server.listen(QHostAddress::LocalHost);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection())
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { serve(socket); });
        });
    }
    quint16 port() const { return m_server.serverPort(); }
    int count(const QByteArray& commandName) const { return m_counts.value(commandName.toUpper()); }

    static QByteArray bulk(const QByteArray& text)
    {
        return '$' + QByteArray::number(text.size()) + "\r\n" + text + "\r\n";
    }
    static QByteArray array(const QList<QByteArray>& items)
    {
        QByteArray out = '*' + QByteArray::number(items.size()) + "\r\n";
        for (const QByteArray& item : items)
            out += item;
        return out;
    }

private:
    void serve(QTcpSocket* socket)
    {
        QByteArray& buffer = m_buffers[socket];
        buffer += socket->readAll();
        QByteArray replies;
        for (;;) {
            QList<QByteArray> command;
            const qsizetype used = parse(buffer, &command);
            if (used == 0)
                break;
            buffer.remove(0, used);
            m_counts[command.value(0).toUpper()] += 1;
            const QByteArray reply = m_answer(command);
            if (reply.isEmpty()) {
                socket->write(replies);
                socket->flush();
                socket->disconnectFromHost();
                return;
            }
            replies += reply;
        }
        socket->write(replies);
    }

    // One RESP array of bulk strings from the front of `buffer`: the bytes it took, or 0 if incomplete.
    static qsizetype parse(const QByteArray& buffer, QList<QByteArray>* command)
    {
        if (!buffer.startsWith('*'))
            return 0;
        qsizetype at = buffer.indexOf("\r\n");
        if (at < 0)
            return 0;
        const int items = buffer.mid(1, at - 1).toInt();
        at += 2;
        for (int i = 0; i < items; ++i) {
            const qsizetype end = buffer.indexOf("\r\n", at);
            if (end < 0 || buffer[at] != '$')
                return 0;
            const int length = buffer.mid(at + 1, end - at - 1).toInt();
            if (buffer.size() < end + 2 + length + 2)
                return 0;
            command->append(buffer.mid(end + 2, length));
            at = end + 2 + length + 2;
        }
        return at;
    }

    Answer m_answer;
    QTcpServer m_server;
    QHash<QTcpSocket*, QByteArray> m_buffers;
    QHash<QByteArray, int> m_counts;
};

} // namespace keylens::test
