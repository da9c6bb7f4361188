#include "models/SavedConnections.h"

#include "models/TransportSettings.h"

#include <QSettings>
#include <QUuid>

namespace keylens::models {

namespace {

QString kindName(ConnectionProfile::Kind kind)
{
    switch (kind) {
    case ConnectionProfile::Kind::Socket:
        return QStringLiteral("socket");
    case ConnectionProfile::Kind::Uri:
        return QStringLiteral("uri");
    case ConnectionProfile::Kind::Sentinel:
        return QStringLiteral("sentinel");
    case ConnectionProfile::Kind::HostPort:
        break;
    }
    return QStringLiteral("host");
}

QString passwordModeName(ConnectionProfile::PasswordMode mode)
{
    switch (mode) {
    case ConnectionProfile::PasswordMode::Keychain:
        return QStringLiteral("keychain");
    case ConnectionProfile::PasswordMode::AskEveryTime:
        return QStringLiteral("ask");
    case ConnectionProfile::PasswordMode::None:
        break;
    }
    return QStringLiteral("none");
}

} // namespace

redis::Result<redis::ConnectionOptions> ConnectionProfile::connectionOptions(const QByteArray& password) const
{
    redis::ConnectionOptions options;
    if (kind == Kind::Uri || kind == Kind::Sentinel) {
        redis::Result<redis::ConnectionOptions> parsed =
            redis::parseRedisUri(kind == Kind::Uri ? uri.toUtf8() : sentinelUri());
        if (!parsed)
            return parsed;
        options = *parsed;
    } else if (kind == Kind::Socket) {
        options.transport = redis::ConnectionOptions::Transport::Unix;
        options.socketPath = socketPath;
        options.db = db;
    } else {
        options.host = host;
        options.port = port;
        options.db = db;
    }
    if (tls.enabled) {
        options.tls = tls;
    } else if (options.tls.enabled) {
        // A rediss:// URI: its files and checks come from the profile.
        options.tls = tls;
        options.tls.enabled = true;
    }
    if (!user.isEmpty())
        options.user = user;
    options.ssh = ssh;
    options.readOnly = readOnly;
    options.connectTimeoutMs = connectTimeoutMs;
    options.commandTimeoutMs = commandTimeoutMs;
    if (!password.isEmpty()) {
        options.password = password;
        options.hasPassword = true;
    }
    return options;
}

QByteArray ConnectionProfile::sentinelUri() const
{
    QByteArray places;
    for (const QString& place : sentinels.split(QLatin1Char(','), Qt::SkipEmptyParts))
        places += (places.isEmpty() ? "" : ",") + place.trimmed().toUtf8();
    return "redis+sentinel://" + places + '/' + masterName.toPercentEncoding() +
           (db != 0 ? '/' + QByteArray::number(db) : QByteArray());
}

QString ConnectionProfile::address() const
{
    const QString via = ssh.enabled() ? SavedConnections::tr(" via SSH %1").arg(ssh.destination()) : QString();
    switch (kind) {
    case Kind::Socket:
        return socketPath;
    case Kind::Uri:
        return uri + via;
    case Kind::Sentinel:
        return SavedConnections::tr("master '%1' via sentinel %2").arg(QString::fromUtf8(masterName), sentinels) + via;
    case Kind::HostPort:
        break;
    }
    return host + u':' + QString::number(port) + via;
}

SavedConnections::SavedConnections(QSettings* settings, QObject* parent)
    : QAbstractListModel(parent)
    , m_settings(settings)
{
    reload();
}

void SavedConnections::reload()
{
    beginResetModel();
    m_profiles.clear();
    const int count = m_settings->beginReadArray(QStringLiteral("connections"));
    for (int i = 0; i < count; ++i) {
        m_settings->setArrayIndex(i);
        ConnectionProfile profile;
        profile.id = m_settings->value(QStringLiteral("id")).toString();
        profile.name = m_settings->value(QStringLiteral("name")).toString();
        const QString kind = m_settings->value(QStringLiteral("kind")).toString();
        profile.kind = kind == QStringLiteral("socket")     ? ConnectionProfile::Kind::Socket
                       : kind == QStringLiteral("uri")      ? ConnectionProfile::Kind::Uri
                       : kind == QStringLiteral("sentinel") ? ConnectionProfile::Kind::Sentinel
                                                            : ConnectionProfile::Kind::HostPort;
        profile.host = m_settings->value(QStringLiteral("host"), profile.host).toString();
        profile.port = quint16(m_settings->value(QStringLiteral("port"), profile.port).toUInt());
        profile.socketPath = m_settings->value(QStringLiteral("socket")).toString();
        profile.uri = m_settings->value(QStringLiteral("uri")).toString();
        profile.sentinels = m_settings->value(QStringLiteral("sentinels")).toString();
        profile.masterName = m_settings->value(QStringLiteral("masterName")).toByteArray();
        profile.user = m_settings->value(QStringLiteral("user")).toByteArray();
        profile.db = m_settings->value(QStringLiteral("db"), 0).toInt();
        profile.delimiter =
            keyspace::Delimiters::ofBytes(m_settings->value(QStringLiteral("delimiter"), QByteArray(":")).toByteArray())
                .value_or(keyspace::Delimiters(':'));
        profile.lintProfile = m_settings->value(QStringLiteral("lintProfile")).toString();
        profile.readOnly = m_settings->value(QStringLiteral("readOnly"), false).toBool();
        profile.production = m_settings->value(QStringLiteral("production"), false).toBool();
        profile.speed = scan::parseSpeed(m_settings->value(QStringLiteral("speed")).toString());
        profile.connectTimeoutMs =
            std::max(100, m_settings->value(QStringLiteral("connectTimeoutMs"), profile.connectTimeoutMs).toInt());
        profile.commandTimeoutMs =
            std::max(100, m_settings->value(QStringLiteral("commandTimeoutMs"), profile.commandTimeoutMs).toInt());
        profile.colour = QColor(m_settings->value(QStringLiteral("colour")).toString());
        const QString mode = m_settings->value(QStringLiteral("password")).toString();
        profile.passwordMode = mode == QStringLiteral("keychain") ? ConnectionProfile::PasswordMode::Keychain
                               : mode == QStringLiteral("ask")    ? ConnectionProfile::PasswordMode::AskEveryTime
                                                                  : ConnectionProfile::PasswordMode::None;
        profile.tls = readTlsSettings(*m_settings);
        profile.ssh = readSshSettings(*m_settings);
        if (!profile.id.isEmpty())
            m_profiles.push_back(std::move(profile));
    }
    m_settings->endArray();
    endResetModel();
}

void SavedConnections::write()
{
    m_settings->remove(QStringLiteral("connections"));
    m_settings->beginWriteArray(QStringLiteral("connections"), int(m_profiles.size()));
    for (int i = 0; i < int(m_profiles.size()); ++i) {
        const ConnectionProfile& profile = m_profiles[std::size_t(i)];
        m_settings->setArrayIndex(i);
        m_settings->setValue(QStringLiteral("id"), profile.id);
        m_settings->setValue(QStringLiteral("name"), profile.name);
        m_settings->setValue(QStringLiteral("kind"), kindName(profile.kind));
        m_settings->setValue(QStringLiteral("host"), profile.host);
        m_settings->setValue(QStringLiteral("port"), profile.port);
        m_settings->setValue(QStringLiteral("socket"), profile.socketPath);
        m_settings->setValue(QStringLiteral("uri"), profile.uri);
        m_settings->setValue(QStringLiteral("sentinels"), profile.sentinels);
        m_settings->setValue(QStringLiteral("masterName"), profile.masterName);
        m_settings->setValue(QStringLiteral("user"), profile.user);
        m_settings->setValue(QStringLiteral("db"), profile.db);
        m_settings->setValue(QStringLiteral("delimiter"), profile.delimiter.bytes());
        m_settings->setValue(QStringLiteral("lintProfile"), profile.lintProfile);
        m_settings->setValue(QStringLiteral("readOnly"), profile.readOnly);
        m_settings->setValue(QStringLiteral("production"), profile.production);
        m_settings->setValue(QStringLiteral("connectTimeoutMs"), profile.connectTimeoutMs);
        m_settings->setValue(QStringLiteral("commandTimeoutMs"), profile.commandTimeoutMs);
        m_settings->setValue(QStringLiteral("speed"),
                             profile.speed ? scan::speedName(*profile.speed) : QStringLiteral("auto"));
        m_settings->setValue(QStringLiteral("colour"), profile.colour.isValid() ? profile.colour.name() : QString());
        m_settings->setValue(QStringLiteral("password"), passwordModeName(profile.passwordMode));
        writeTlsSettings(*m_settings, profile.tls);
        writeSshSettings(*m_settings, profile.ssh);
    }
    m_settings->endArray();
    m_settings->sync();
}

const ConnectionProfile* SavedConnections::find(const QString& idOrName) const
{
    for (const ConnectionProfile& profile : m_profiles) {
        if (profile.id == idOrName)
            return &profile;
    }
    for (const ConnectionProfile& profile : m_profiles) {
        if (profile.name == idOrName)
            return &profile;
    }
    return nullptr;
}

QString SavedConnections::save(ConnectionProfile profile)
{
    if (profile.id.isEmpty())
        profile.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (profile.name.trimmed().isEmpty())
        profile.name = profile.address();
    const QString id = profile.id;
    auto it = std::find_if(m_profiles.begin(), m_profiles.end(),
                           [&](const ConnectionProfile& existing) { return existing.id == id; });
    if (it != m_profiles.end()) {
        *it = std::move(profile);
        const int row = int(it - m_profiles.begin());
        Q_EMIT dataChanged(index(row), index(row));
    } else {
        beginInsertRows({}, int(m_profiles.size()), int(m_profiles.size()));
        m_profiles.push_back(std::move(profile));
        endInsertRows();
    }
    write();
    return id;
}

void SavedConnections::remove(const QString& id)
{
    auto it = std::find_if(m_profiles.begin(), m_profiles.end(),
                           [&](const ConnectionProfile& existing) { return existing.id == id; });
    if (it == m_profiles.end())
        return;
    const int row = int(it - m_profiles.begin());
    beginRemoveRows({}, row, row);
    m_profiles.erase(it);
    endRemoveRows();
    write();
}

int SavedConnections::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_profiles.size());
}

QVariant SavedConnections::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || std::size_t(index.row()) >= m_profiles.size())
        return {};
    const ConnectionProfile& profile = m_profiles[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return profile.name;
    case Qt::ToolTipRole:
        return QString(profile.address() + (profile.readOnly ? tr(" (read-only)") : QString()));
    case Qt::DecorationRole:
        return profile.colour.isValid() ? QVariant(profile.colour) : QVariant();
    case IdRole:
        return profile.id;
    }
    return {};
}

} // namespace keylens::models
