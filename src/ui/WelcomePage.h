#pragma once

#include "models/RecentConnections.h"
#include "models/SavedConnections.h"

#include <QTimer>
#include <QWidget>

#include <utility>

class QAbstractButton;
class QGridLayout;
class QLabel;
class QTcpSocket;
class QVBoxLayout;

namespace keylens::ui {

// What the window shows before it is connected anywhere: the saved and recent connections, the local server
// when one answers, the demo with a sentence on what it is, and the keyboard shortcuts.
class WelcomePage : public QWidget
{
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    void setConnections(const std::vector<models::ConnectionProfile>& saved,
                        const std::vector<models::RecentConnection>& recent);
    void setShortcuts(const QList<std::pair<QString, QString>>& shortcuts);
    // Looks for a Redis server there (a PING, answered with PONG or with a request for a password) and offers it
    // when it answers.
    void probeLocalServer(const QString& host = QStringLiteral("localhost"), quint16 port = 6379);

    // For tests: the button that connects to the local server (hidden until it answers), and every button.
    QAbstractButton* localServerButton() const { return m_local; }
    QList<QAbstractButton*> buttons() const;

Q_SIGNALS:
    void connectToLocal(const QString& host, quint16 port);
    void newConnection();
    void openSaved(const QString& id);
    void openRecent(const models::RecentConnection& connection);
    void tryDemo();
    void localServerProbed(bool answers); // for tests

private:
    void probeAnswered(const QByteArray& reply);
    void probeFailed();

    QVBoxLayout* m_connections;
    QAbstractButton* m_local;
    QGridLayout* m_shortcuts;
    QTcpSocket* m_probe = nullptr;
    QTimer m_probeTimeout;
    QString m_probeHost;
    quint16 m_probePort = 0;
};

} // namespace keylens::ui
