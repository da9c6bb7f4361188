#include "ui/ConnectionDialog.h"

#include "ui/CredentialsDialog.h"
#include "ui/PasswordVault.h"
#include "ui/SshGroup.h"
#include "ui/TlsGroup.h"

#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScopeGuard>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace keylens::ui {

using models::ConnectionProfile;

namespace {

enum PasswordModeIndex { NoPasswordIndex, KeychainIndex, AskIndex };

void paintColourButton(QPushButton* button, const QColor& colour)
{
    QPixmap swatch(16, 16);
    swatch.fill(colour.isValid() ? colour : QColor(Qt::transparent));
    button->setIcon(QIcon(swatch));
    button->setText(colour.isValid() ? colour.name() : ConnectionDialog::tr("None"));
}

} // namespace

ConnectionDialog::ConnectionDialog(models::SavedConnections* saved, PasswordVault* vault, QWidget* parent)
    : QDialog(parent)
    , m_saved(saved)
    , m_vault(vault)
    , m_tester(new models::ConnectionTester(this))
{
    setWindowTitle(tr("Connect to Redis"));
    connect(m_tester, &models::ConnectionTester::tested, this,
            [this](const std::optional<redis::Error>& failure, const QString& address) {
                if (failure)
                    showProblem(*failure);
                else
                    m_status->setText(tr("Connected to %1.").arg(address));
                Q_EMIT tested();
            });

    m_list = new QListView;
    m_list->setModel(saved);
    m_list->setMinimumWidth(180);
    auto* newButton = new QPushButton(tr("New"));
    auto* removeButton = new QPushButton(tr("Delete"));
    auto* listButtons = new QHBoxLayout;
    listButtons->addWidget(newButton);
    listButtons->addWidget(removeButton);
    auto* listColumn = new QVBoxLayout;
    m_recent = new QComboBox;
    m_recent->setObjectName(QStringLiteral("recent"));
    m_recent->setToolTip(tr("The servers connected to lately: choosing one fills the form"));
    m_recent->addItem(tr("Recent connections…"));
    m_recent->setEnabled(false);
    connect(m_recent, &QComboBox::activated, this, [this](int index) {
        if (index <= 0 || std::size_t(index - 1) >= m_recentProfiles.size())
            return;
        m_list->clearSelection();
        edit(m_recentProfiles[std::size_t(index - 1)]);
        m_recent->setCurrentIndex(0);
    });
    listColumn->addWidget(m_recent);
    listColumn->addWidget(new QLabel(tr("Saved connections")));
    listColumn->addWidget(m_list, 1);
    listColumn->addLayout(listButtons);

    m_name = new QLineEdit;
    m_name->setPlaceholderText(tr("e.g. staging cache"));
    m_kind = new QComboBox;
    m_kind->addItems({tr("Host and port"), tr("Unix socket"), QStringLiteral("URI"), tr("Redis Sentinel")});
    m_host = new QLineEdit(QStringLiteral("127.0.0.1"));
    m_port = new QSpinBox;
    m_port->setObjectName(QStringLiteral("port"));
    m_port->setRange(1, 65535);
    m_port->setValue(6379);
    auto* hostRow = new QWidget;
    auto* hostLayout = new QHBoxLayout(hostRow);
    hostLayout->setContentsMargins(0, 0, 0, 0);
    hostLayout->addWidget(m_host, 1);
    hostLayout->addWidget(new QLabel(tr("Port")));
    hostLayout->addWidget(m_port);
    m_socket = new QLineEdit;
    m_socket->setPlaceholderText(QStringLiteral("/run/redis/redis-server.sock"));
    m_uri = new QLineEdit;
    m_uri->setPlaceholderText(QStringLiteral("redis://user@host:6379/0"));
    m_uri->setToolTip(QStringLiteral("redis://[user@]host[:port][/db], rediss:// for TLS, unix:///path/redis.sock, or "
                                     "redis+sentinel://sentinel[:26379][,sentinel2…]/master-name[/db] to find a "
                                     "master through Redis Sentinel (found again after a failover)"));
    // Sentinel: the sentinels to ask and the master's name; the master is found again after a failover.
    m_sentinels = new QLineEdit;
    m_sentinels->setObjectName(QStringLiteral("sentinels"));
    m_sentinels->setPlaceholderText(tr("sentinel-1:26379, sentinel-2:26379"));
    m_sentinels->setToolTip(tr("The sentinels to ask, in order: host[:port] (26379 by default), separated "
                               "by commas"));
    m_masterName = new QLineEdit;
    m_masterName->setObjectName(QStringLiteral("masterName"));
    m_masterName->setPlaceholderText(tr("master name"));
    auto* sentinelPage = new QWidget;
    auto* sentinelLayout = new QHBoxLayout(sentinelPage);
    sentinelLayout->setContentsMargins(0, 0, 0, 0);
    sentinelLayout->addWidget(m_sentinels, 2);
    sentinelLayout->addWidget(m_masterName, 1);
    m_kindPages = new QStackedWidget;
    m_kindPages->addWidget(hostRow);
    m_kindPages->addWidget(m_socket);
    m_kindPages->addWidget(m_uri);
    m_kindPages->addWidget(sentinelPage);
    m_kindPages->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    m_user = new QLineEdit;
    m_user->setPlaceholderText(QStringLiteral("default"));
    m_password = new QLineEdit;
    m_password->setEchoMode(QLineEdit::Password);
    m_passwordMode = new QComboBox;
    m_passwordMode->addItems({tr("No password"), tr("Remember in the keychain"), tr("Ask every time")});
    m_db = new QSpinBox;
    m_db->setRange(0, 65535);
    m_delimiter = new QLineEdit(QStringLiteral(":"));
    m_delimiter->setMaxLength(16);
    m_delimiter->setMaximumWidth(80);
    m_delimiter->setToolTip(tr("The bytes that split key names into levels: ':' or several, as ':/' (\\t and \\xHH "
                               "for bytes hard to type)"));
    m_lintProfile = new QComboBox;
    m_lintProfile->setEditable(true);
    m_lintProfile->addItems({QStringLiteral("default"), QStringLiteral("strict")});
    m_lintProfile->setToolTip(tr("The naming convention the keys are checked against: default, strict, "
                                 "or the path of a JSON profile file"));
    auto* browseProfile = new QPushButton(tr("File…"));
    connect(browseProfile, &QPushButton::clicked, this, [this] {
        const QString file =
            QFileDialog::getOpenFileName(this, tr("Naming profile"), QString(), tr("Keylens profiles (*.json)"));
        if (!file.isEmpty())
            m_lintProfile->setCurrentText(file);
    });
    auto* profileRow = new QHBoxLayout;
    profileRow->addWidget(m_lintProfile, 1);
    profileRow->addWidget(browseProfile);
    m_readOnly = new QCheckBox(tr("Read-only: never change or delete anything"));
    m_production = new QCheckBox(tr("Production: ask before dangerous console commands"));
    m_production->setObjectName(QStringLiteral("production"));
    m_production->setToolTip(tr("FLUSHALL, FLUSHDB, KEYS, DEBUG, SHUTDOWN and CONFIG SET ask first"));
    m_speed = new QComboBox;
    m_speed->setObjectName(QStringLiteral("speed"));
    m_speed->addItem(tr("Automatic: gentle unless the server is on this machine"));
    m_speed->addItem(tr("Full: as fast as the server answers"));
    m_speed->addItem(tr("Gentle: small rounds, backs off when the server slows"));
    // A slow link or a big MEMORY USAGE may need longer than the defaults; Cancel stops a wait at once anyway.
    const auto secondsBox = [](const QString& name) {
        auto* box = new QDoubleSpinBox;
        box->setObjectName(name);
        box->setRange(0.1, 3600);
        box->setDecimals(1);
        box->setSuffix(tr(" s"));
        return box;
    };
    m_connectTimeout = secondsBox(QStringLiteral("connectTimeout"));
    m_commandTimeout = secondsBox(QStringLiteral("commandTimeout"));
    m_colour = new QPushButton;
    paintColourButton(m_colour, {});
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_addressProblem = createFieldProblemLabel();
    m_credentialsProblem = createFieldProblemLabel();
    m_databaseProblem = createFieldProblemLabel();

    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Connect by"), m_kind);
    form->addRow(tr("Address"), m_kindPages);
    form->addRow(tr("ACL user"), m_user);
    form->addRow(tr("Password"), m_password);
    form->addRow(QString(), m_passwordMode);
    form->addRow(tr("Database"), m_db);
    form->addRow(tr("Delimiter"), m_delimiter);
    form->addRow(tr("Naming profile"), profileRow);
    form->addRow(QString(), m_readOnly);
    form->addRow(QString(), m_production);
    form->addRow(tr("Scan speed"), m_speed);
    auto* timeouts = new QHBoxLayout;
    timeouts->addWidget(new QLabel(tr("connect")));
    timeouts->addWidget(m_connectTimeout);
    timeouts->addWidget(new QLabel(tr("each reply")));
    timeouts->addWidget(m_commandTimeout);
    timeouts->addStretch(1);
    form->addRow(tr("Timeouts"), timeouts);
    form->addRow(tr("Colour tag"), m_colour);

    m_tls = new TlsGroup;
    m_ssh = new SshGroup;

    auto* buttons = new QDialogButtonBox;
    auto* testButton = buttons->addButton(tr("Test"), QDialogButtonBox::ActionRole);
    auto* saveButton = buttons->addButton(tr("Save"), QDialogButtonBox::ActionRole);
    auto* connectButton = buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    connectButton->setDefault(true);

    auto* formColumn = new QVBoxLayout;
    formColumn->addLayout(form);
    formColumn->addWidget(m_tls);
    formColumn->addWidget(m_ssh);
    // Below every field, naming the one they are about: shown under their field, they pushed the fields below down
    // while the pointer was on its way to one (a password went into the ACL user field).
    for (QLabel* problem : {m_addressProblem, m_credentialsProblem, m_databaseProblem})
        formColumn->addWidget(problem);
    formColumn->addWidget(m_status);
    formColumn->addStretch(1);
    auto* columns = new QHBoxLayout;
    columns->addLayout(listColumn);
    columns->addLayout(formColumn, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &ConnectionDialog::updateKind);
    // A problem shown under a field goes once that field is changed.
    for (QLineEdit* edit : {m_host, m_socket, m_uri, m_sentinels, m_masterName})
        connect(edit, &QLineEdit::textEdited, this, [this] { showFieldProblem(m_addressProblem, {}); });
    connect(m_port, &QSpinBox::valueChanged, this, [this] { showFieldProblem(m_addressProblem, {}); });
    for (QLineEdit* edit : {m_user, m_password})
        connect(edit, &QLineEdit::textEdited, this, [this] { showFieldProblem(m_credentialsProblem, {}); });
    connect(m_db, &QSpinBox::valueChanged, this, [this] { showFieldProblem(m_databaseProblem, {}); });
    connect(newButton, &QPushButton::clicked, this, &ConnectionDialog::newProfile);
    connect(removeButton, &QPushButton::clicked, this, &ConnectionDialog::removeCurrent);
    connect(testButton, &QPushButton::clicked, this, &ConnectionDialog::testConnection);
    connect(saveButton, &QPushButton::clicked, this, &ConnectionDialog::saveCurrent);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_colour, &QPushButton::clicked, this, [this] {
        const QColor chosen =
            QColorDialog::getColor(m_colourValue.isValid() ? m_colourValue : QColor(Qt::red), this, tr("Colour tag"));
        if (chosen.isValid()) {
            m_colourValue = chosen;
            paintColourButton(m_colour, chosen);
        }
    });
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        if (const ConnectionProfile* profile = m_saved->find(current.data(models::SavedConnections::IdRole).toString()))
            loadProfile(*profile);
    });
    connect(m_password, &QLineEdit::textEdited, this, [this] {
        if (m_passwordMode->currentIndex() == NoPasswordIndex && !m_password->text().isEmpty())
            m_passwordMode->setCurrentIndex(KeychainIndex);
    });
    loadProfile(ConnectionProfile{}); // a new connection's defaults: port 6379, 5 s to connect…
}

void ConnectionDialog::updateKind()
{
    m_kindPages->setCurrentIndex(m_kind->currentIndex());
    const bool uri = m_kind->currentIndex() == int(ConnectionProfile::Kind::Uri);
    m_db->setEnabled(!uri);
}

void ConnectionDialog::selectProfile(const QString& id)
{
    for (int row = 0; row < m_saved->rowCount(); ++row) {
        const QModelIndex index = m_saved->index(row);
        if (index.data(models::SavedConnections::IdRole).toString() == id)
            m_list->setCurrentIndex(index);
    }
}

void ConnectionDialog::loadProfile(const ConnectionProfile& profile)
{
    clearProblems();
    m_currentId = profile.id;
    m_name->setText(profile.name);
    m_kind->setCurrentIndex(int(profile.kind));
    m_host->setText(profile.host);
    m_port->setValue(profile.port);
    m_socket->setText(profile.socketPath);
    m_uri->setText(profile.uri);
    m_sentinels->setText(profile.sentinels);
    m_masterName->setText(QString::fromUtf8(profile.masterName));
    m_user->setText(QString::fromUtf8(profile.user));
    m_db->setValue(profile.db);
    m_delimiter->setText(QString::fromLatin1(profile.delimiter.text()));
    m_lintProfile->setCurrentText(profile.lintProfile.isEmpty() ? QStringLiteral("default") : profile.lintProfile);
    m_readOnly->setChecked(profile.readOnly);
    m_production->setChecked(profile.production);
    m_speed->setCurrentIndex(!profile.speed ? 0 : *profile.speed == scan::ScanSpeed::Full ? 1 : 2);
    m_connectTimeout->setValue(profile.connectTimeoutMs / 1000.0);
    m_commandTimeout->setValue(profile.commandTimeoutMs / 1000.0);
    m_colourValue = profile.colour;
    redis::TlsOptions tls = profile.tls;
    tls.enabled = profile.tls.enabled ||
                  (profile.kind == ConnectionProfile::Kind::Uri && profile.uri.startsWith(QStringLiteral("rediss:")));
    m_tls->setOptions(tls);
    m_ssh->setOptions(profile.ssh);
    paintColourButton(m_colour, profile.colour);
    m_password->clear();
    m_status->clear();
    switch (profile.passwordMode) {
    case ConnectionProfile::PasswordMode::None:
        m_passwordMode->setCurrentIndex(NoPasswordIndex);
        break;
    case ConnectionProfile::PasswordMode::AskEveryTime:
        m_passwordMode->setCurrentIndex(AskIndex);
        m_password->setPlaceholderText(tr("asked when connecting"));
        break;
    case ConnectionProfile::PasswordMode::Keychain: {
        m_passwordMode->setCurrentIndex(KeychainIndex);
        m_password->setPlaceholderText(tr("reading the keychain…"));
        const QString id = profile.id;
        QPointer<ConnectionDialog> self(this);
        m_vault->read(id, [self, id](const QByteArray& password, const QString& error) {
            if (!self || self->m_currentId != id)
                return;
            self->m_password->setPlaceholderText(QString());
            if (error.isEmpty())
                self->m_password->setText(QString::fromUtf8(password));
            else
                self->m_status->setText(tr("The keychain did not give the password: %1").arg(error));
        });
        break;
    }
    }
    updateKind();
}

void ConnectionDialog::edit(const ConnectionProfile& profile, const QByteArray& password)
{
    loadProfile(profile);
    if (!password.isEmpty())
        m_password->setText(QString::fromUtf8(password));
}

void ConnectionDialog::newProfile()
{
    m_list->clearSelection();
    loadProfile(ConnectionProfile{});
    m_name->setFocus();
}

void ConnectionDialog::removeCurrent()
{
    if (m_currentId.isEmpty())
        return;
    const ConnectionProfile* profile = m_saved->find(m_currentId);
    if (!profile)
        return;
    if (QMessageBox::question(this, tr("Delete connection"),
                              tr("Delete the saved connection '%1'? The server is not touched.").arg(profile->name)) !=
        QMessageBox::Yes)
        return;
    if (profile->passwordMode == ConnectionProfile::PasswordMode::Keychain)
        m_vault->remove(m_currentId);
    m_saved->remove(m_currentId);
    newProfile();
}

ConnectionProfile ConnectionDialog::profile() const
{
    ConnectionProfile profile;
    profile.id = m_currentId;
    profile.name = m_name->text().trimmed();
    profile.kind = ConnectionProfile::Kind(m_kind->currentIndex());
    profile.host = m_host->text().trimmed();
    profile.port = quint16(m_port->value());
    profile.socketPath = m_socket->text().trimmed();
    profile.uri = m_uri->text().trimmed();
    profile.sentinels = m_sentinels->text().trimmed();
    profile.masterName = m_masterName->text().trimmed().toUtf8();
    profile.user = m_user->text().toUtf8();
    // Credentials typed into the URI move to their own fields: the password to the keychain (or to
    // nowhere), the ACL user to the user field. The URI is saved with neither.
    if (profile.kind == ConnectionProfile::Kind::Uri) {
        if (redis::Result<redis::ConnectionOptions> parsed = redis::parseRedisUri(profile.uri.toUtf8()); parsed) {
            if (profile.user.isEmpty())
                profile.user = parsed->user;
            parsed->user.clear();
            profile.uri = parsed->uriWithoutPassword();
        } else {
            // A URI with a typo is saved too, but never with its user-info.
            profile.uri = redis::uriWithoutUserInfo(profile.uri.toUtf8());
        }
    }
    profile.db = m_db->value();
    profile.delimiter = keyspace::Delimiters::parse(m_delimiter->text().toUtf8()).value_or(keyspace::Delimiters(':'));
    profile.lintProfile = m_lintProfile->currentText().trimmed();
    if (profile.lintProfile == QStringLiteral("default"))
        profile.lintProfile.clear();
    profile.readOnly = m_readOnly->isChecked();
    profile.production = m_production->isChecked();
    profile.speed = m_speed->currentIndex() == 1   ? std::optional(scan::ScanSpeed::Full)
                    : m_speed->currentIndex() == 2 ? std::optional(scan::ScanSpeed::Gentle)
                                                   : std::nullopt;
    profile.connectTimeoutMs = int(m_connectTimeout->value() * 1000 + 0.5);
    profile.commandTimeoutMs = int(m_commandTimeout->value() * 1000 + 0.5);
    profile.colour = m_colourValue;
    profile.tls = m_tls->options();
    profile.tls.enabled = profile.tls.enabled || (profile.kind == ConnectionProfile::Kind::Uri &&
                                                  profile.uri.startsWith(QStringLiteral("rediss:")));
    profile.ssh = m_ssh->options();
    switch (m_passwordMode->currentIndex()) {
    case KeychainIndex:
        profile.passwordMode = ConnectionProfile::PasswordMode::Keychain;
        break;
    case AskIndex:
        profile.passwordMode = ConnectionProfile::PasswordMode::AskEveryTime;
        break;
    default:
        profile.passwordMode = ConnectionProfile::PasswordMode::None;
    }
    return profile;
}

QByteArray ConnectionDialog::password() const
{
    if (!m_password->text().isEmpty())
        return m_password->text().toUtf8();
    if (m_kind->currentIndex() == int(ConnectionProfile::Kind::Uri)) {
        if (redis::Result<redis::ConnectionOptions> parsed = redis::parseRedisUri(m_uri->text().trimmed().toUtf8());
            parsed && parsed->hasPassword)
            return parsed->password;
    }
    return {};
}

void ConnectionDialog::saveCurrent()
{
    ConnectionProfile current = profile();
    const QByteArray secret = password();
    if (current.passwordMode == ConnectionProfile::PasswordMode::Keychain && secret.isEmpty())
        current.passwordMode = ConnectionProfile::PasswordMode::None;
    m_currentId = m_saved->save(current);
    selectProfile(m_currentId);
    if (current.passwordMode != ConnectionProfile::PasswordMode::Keychain) {
        m_status->setText(tr("Saved."));
        return;
    }
    m_status->setText(tr("Saved; storing the password in the keychain…"));
    const QString id = m_currentId;
    QPointer<ConnectionDialog> self(this);
    m_vault->store(id, secret, [self, id](const QString& error) {
        if (!self)
            return;
        if (error.isEmpty()) {
            self->m_status->setText(tr("Saved; the password is in the keychain."));
            return;
        }
        // No keychain: do not keep a plain-text copy anywhere. Ask every time instead, and say so.
        if (const ConnectionProfile* saved = self->m_saved->find(id)) {
            ConnectionProfile fallback = *saved;
            fallback.passwordMode = ConnectionProfile::PasswordMode::AskEveryTime;
            self->m_saved->save(fallback);
        }
        if (self->m_currentId == id)
            self->m_passwordMode->setCurrentIndex(AskIndex);
        const QString reason =
            tr("No keychain service answered (%1). The password was not saved anywhere; Keylens will ask "
               "for it every time you connect.")
                .arg(error);
        self->m_status->setText(reason);
        Q_EMIT self->keychainProblem(reason);
    });
}

void ConnectionDialog::clearProblems()
{
    for (QLabel* label : {m_addressProblem, m_credentialsProblem, m_databaseProblem})
        showFieldProblem(label, {});
    m_tls->showProblem({});
    m_ssh->showProblem({});
}

void ConnectionDialog::offerRecent(const std::vector<models::ConnectionProfile>& profiles)
{
    m_recentProfiles = profiles;
    while (m_recent->count() > 1)
        m_recent->removeItem(1);
    // The connection bar's name leaves out the ACL user: two users of one server were two "127.0.0.1:7602".
    for (const models::ConnectionProfile& profile : profiles)
        m_recent->addItem(profile.user.isEmpty()
                              ? profile.name
                              : tr("%1 · user %2").arg(profile.name, QString::fromUtf8(profile.user)));
    m_recent->setEnabled(!profiles.empty());
}

void ConnectionDialog::showProblem(const redis::Error& error)
{
    // A problem two lines long (WRONGPASS's own words) is read whole: the dialog grows to hold it, once laid out.
    const auto grow = qScopeGuard([this] {
        m_grow.post([this] {
            if (const int wanted = sizeHint().height(); wanted > height())
                resize(width(), wanted);
        });
    });
    clearProblems();
    m_status->clear();
    switch (error.kind) {
    case redis::ErrorKind::AuthFailed:
    case redis::ErrorKind::AuthRequired:
    case redis::ErrorKind::NoPermission:
        showFieldProblem(m_credentialsProblem, tr("ACL user and password: %1").arg(error.message));
        m_password->setFocus();
        return;
    case redis::ErrorKind::Server:
        // After the login, the handshake's only command that can fail is SELECT.
        if (m_db->isEnabled() && m_db->value() != 0) {
            showFieldProblem(m_databaseProblem, tr("Database: %1").arg(error.message));
            return;
        }
        break;
    case redis::ErrorKind::Tls:
        m_tls->showProblem(error.message);
        return;
    case redis::ErrorKind::Tunnel:
        m_ssh->showProblem(error.message);
        return;
    case redis::ErrorKind::Usage:
    case redis::ErrorKind::Unsupported:
    case redis::ErrorKind::HostNotFound:
    case redis::ErrorKind::Refused:
    case redis::ErrorKind::Timeout:
    case redis::ErrorKind::ConnectionLost:
    case redis::ErrorKind::Protocol:
    case redis::ErrorKind::Loading:
    case redis::ErrorKind::Busy:
        showFieldProblem(m_addressProblem, tr("Address: %1").arg(error.message));
        return;
    case redis::ErrorKind::UnknownCommand:
    case redis::ErrorKind::Cancelled:
    case redis::ErrorKind::ReadOnly:
    case redis::ErrorKind::Damaged:
        break;
    }
    showFieldProblem(m_addressProblem, tr("Address: %1").arg(error.message));
}

QString ConnectionDialog::addressProblem() const
{
    return m_addressProblem->isVisibleTo(this) ? m_addressProblem->text() : QString();
}

QString ConnectionDialog::credentialsProblem() const
{
    return m_credentialsProblem->isVisibleTo(this) ? m_credentialsProblem->text() : QString();
}

QString ConnectionDialog::tlsProblem() const
{
    return m_tls->problem();
}

QString ConnectionDialog::sshProblem() const
{
    return m_ssh->problem();
}

QString ConnectionDialog::databaseProblem() const
{
    return m_databaseProblem->isVisibleTo(this) ? m_databaseProblem->text() : QString();
}

void ConnectionDialog::testConnection()
{
    clearProblems();
    if (m_ssh->isChecked() && !m_ssh->options().enabled()) {
        m_ssh->showProblem(tr("Give the SSH server to tunnel through, or untick SSH tunnel."));
        Q_EMIT tested();
        return;
    }
    redis::Result<redis::ConnectionOptions> options = profile().connectionOptions(password());
    if (!options) {
        showProblem(options.error());
        Q_EMIT tested();
        return;
    }
    m_status->setText(tr("Connecting to %1…").arg(options->description()));
    m_tester->test(*options);
}

} // namespace keylens::ui
