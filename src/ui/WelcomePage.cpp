#include "ui/WelcomePage.h"

#include <QCommandLinkButton>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTcpSocket>
#include <QVBoxLayout>

namespace keylens::ui {

namespace {

QLabel* heading(const QString& text)
{
    auto* label = new QLabel(text);
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    label->setFont(font);
    return label;
}

QCommandLinkButton* linkButton(const QString& title, const QString& description)
{
    auto* button = new QCommandLinkButton(title, description);
    // Its own policy asks for a height for its width (the description wraps): keep that, only widen it.
    QSizePolicy policy = button->sizePolicy();
    policy.setHorizontalPolicy(QSizePolicy::Expanding);
    button->setSizePolicy(policy);
    return button;
}

} // namespace

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("welcomePage"));
    auto* content = new QWidget;
    content->setMaximumWidth(980);

    auto* title = new QLabel(tr("Keylens"));
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 2);
    titleFont.setBold(true);
    title->setFont(titleFont);
    auto* tagline = new QLabel(
        tr("Scans a Redis keyspace in the background and shows it as a tree of namespaces: where the memory goes, "
           "which keys never expire, and which names break your conventions."));
    tagline->setWordWrap(true);

    // Left: where to connect.
    auto* left = new QVBoxLayout;
    left->addWidget(heading(tr("Connect")));
    m_local = linkButton(tr("Connect to localhost:6379"), QString());
    m_local->setObjectName(QStringLiteral("connectLocal"));
    m_local->setVisible(false);
    connect(m_local, &QAbstractButton::clicked, this, [this] { Q_EMIT connectToLocal(m_probeHost, m_probePort); });
    left->addWidget(m_local);
    auto* other =
        linkButton(tr("New connection…"), tr("A host and port, a socket, or a redis:// URI; saved for next time."));
    connect(other, &QAbstractButton::clicked, this, &WelcomePage::newConnection);
    left->addWidget(other);
    m_connections = new QVBoxLayout;
    left->addLayout(m_connections);
    left->addStretch(1); // the column tops line up

    // Right: the demo, and the keys to know.
    auto* right = new QVBoxLayout;
    right->addWidget(heading(tr("Try the demo")));
    auto* demo = linkButton(tr("Open the demo keyspace"),
                            tr("Starts a private redis-server on this machine, writes 200,000 keys the "
                               "way real applications do (sessions, caches, queues, leaderboards, and "
                               "their naming mistakes) and scans them. It touches no other server and "
                               "stops when the window closes."));
    demo->setObjectName(QStringLiteral("tryDemo"));
    connect(demo, &QAbstractButton::clicked, this, &WelcomePage::tryDemo);
    right->addWidget(demo);
    right->addSpacing(12);
    right->addWidget(heading(tr("Keyboard")));
    m_shortcuts = new QGridLayout;
    m_shortcuts->setColumnStretch(1, 1);
    m_shortcuts->setHorizontalSpacing(16);
    right->addLayout(m_shortcuts);

    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addSpacing(24);
    columns->addLayout(right, 1);

    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->addWidget(title);
    contentLayout->addWidget(tagline);
    contentLayout->addSpacing(16);
    contentLayout->addLayout(columns);
    contentLayout->addStretch(1);

    // Centred, and scrolled rather than cut when the window is small.
    auto* centring = new QWidget;
    auto* centringLayout = new QHBoxLayout(centring);
    centringLayout->addStretch(0);
    centringLayout->addWidget(content, 1);
    centringLayout->addStretch(0);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(centring);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    m_probeTimeout.setSingleShot(true);
    m_probeTimeout.setInterval(1500);
    connect(&m_probeTimeout, &QTimer::timeout, this, &WelcomePage::probeFailed);
}

QList<QAbstractButton*> WelcomePage::buttons() const
{
    return findChildren<QAbstractButton*>();
}

void WelcomePage::setConnections(const std::vector<models::ConnectionProfile>& saved,
                                 const std::vector<models::RecentConnection>& recent)
{
    while (QLayoutItem* item = m_connections->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (!saved.empty())
        m_connections->addWidget(heading(tr("Saved")));
    for (const models::ConnectionProfile& profile : saved) {
        QString description = profile.address();
        if (profile.readOnly)
            description += tr(" · read-only");
        auto* button = linkButton(profile.name, description);
        connect(button, &QAbstractButton::clicked, this, [this, id = profile.id] { Q_EMIT openSaved(id); });
        m_connections->addWidget(button);
    }
    // Recent ones that are saved are listed above already.
    std::vector<models::RecentConnection> unsaved;
    for (const models::RecentConnection& entry : recent) {
        const bool isSaved = std::any_of(saved.begin(), saved.end(), [&entry](const models::ConnectionProfile& p) {
            return !entry.savedId.isEmpty() && p.id == entry.savedId;
        });
        if (!isSaved)
            unsaved.push_back(entry);
    }
    if (!unsaved.empty())
        m_connections->addWidget(heading(tr("Recent")));
    for (const models::RecentConnection& entry : unsaved) {
        auto* button = linkButton(entry.name, entry.uri == entry.name ? QString() : entry.uri);
        connect(button, &QAbstractButton::clicked, this, [this, entry] { Q_EMIT openRecent(entry); });
        m_connections->addWidget(button);
    }
}

void WelcomePage::setShortcuts(const QList<std::pair<QString, QString>>& shortcuts)
{
    while (QLayoutItem* item = m_shortcuts->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    int row = 0;
    for (const auto& [keys, what] : shortcuts) {
        auto* key = new QLabel(QStringLiteral("<b>%1</b>").arg(keys.toHtmlEscaped()));
        m_shortcuts->addWidget(key, row, 0, Qt::AlignTop);
        auto* text = new QLabel(what);
        text->setWordWrap(true);
        m_shortcuts->addWidget(text, row, 1);
        ++row;
    }
}

void WelcomePage::probeLocalServer(const QString& host, quint16 port)
{
    delete m_probe;
    m_probeHost = host;
    m_probePort = port;
    m_local->setVisible(false);
    m_probe = new QTcpSocket(this);
    QTcpSocket* probe = m_probe;
    connect(probe, &QTcpSocket::connected, probe, [probe] { probe->write("PING\r\n"); });
    connect(probe, &QTcpSocket::readyRead, this, [this, probe] {
        if (probe->canReadLine())
            probeAnswered(probe->readLine());
    });
    connect(probe, &QTcpSocket::errorOccurred, this, &WelcomePage::probeFailed);
    m_probeTimeout.start();
    probe->connectToHost(host, port);
}

void WelcomePage::probeAnswered(const QByteArray& reply)
{
    if (!m_probe)
        return; // it timed out first
    m_probeTimeout.stop();
    // PONG, or an error that only a Redis server gives (NOAUTH, LOADING...): either way a server is there.
    const bool isRedis = reply.startsWith("+PONG") || reply.startsWith("-NOAUTH") || reply.startsWith("-LOADING") ||
                         reply.startsWith("-MASTERDOWN") || reply.startsWith("-ERR");
    if (isRedis) {
        m_local->setText(tr("Connect to %1:%2").arg(m_probeHost).arg(m_probePort));
        static_cast<QCommandLinkButton*>(m_local)->setDescription(
            reply.startsWith("-NOAUTH") ? tr("A Redis server answers here; it asks for a password.")
                                        : tr("A Redis server answers here."));
        m_local->setVisible(true);
    }
    m_probe->deleteLater();
    m_probe = nullptr;
    Q_EMIT localServerProbed(isRedis);
}

void WelcomePage::probeFailed()
{
    if (!m_probe)
        return;
    m_probeTimeout.stop();
    m_probe->abort();
    m_probe->deleteLater();
    m_probe = nullptr;
    Q_EMIT localServerProbed(false);
}

} // namespace keylens::ui
