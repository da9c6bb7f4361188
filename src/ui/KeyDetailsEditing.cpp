// KeyDetailsView's editing: a string in its text, JSON or hex view (saved back compressed as it was stored, when the
// user agrees), the elements of a collection, and the key's TTL, name and copies. Each change carries what was read;
// a value changed on the server since is refused, and the user sees the difference.
#include "edit/RenamePlan.h"
#include "inspect/PayloadEncoder.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/LineDiff.h"
#include "models/ValueTableModel.h"
#include "ui/EditDialogs.h"
#include "ui/KeyDetailsView.h"
#include "usage/OptionValues.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace keylens::ui {

using keyspace::KeyType;
using Kind = edit::KeyEdit::Kind;
using models::displayText;

namespace {

enum class Mode { Auto, Text, Json, Hex }; // as the view's mode switch lists them

// Plain hex pairs, sixteen bytes a line: what the hex view becomes while it is edited (offsets and the ASCII column
// would be typed over).
QString hexForEditing(const QByteArray& bytes)
{
    QString out;
    for (qsizetype at = 0; at < bytes.size(); at += 16) {
        out += QString::fromLatin1(bytes.mid(at, 16).toHex(' '));
        out += u'\n';
    }
    return out;
}

std::optional<QByteArray> bytesFromHex(const QString& text)
{
    QByteArray digits;
    for (const QChar c : text) {
        if (c.isSpace())
            continue;
        if (!isxdigit(c.toLatin1()))
            return std::nullopt;
        digits.append(c.toLatin1());
    }
    if (digits.size() % 2 != 0)
        return std::nullopt;
    return QByteArray::fromHex(digits);
}

// JSON without the whitespace between its tokens, members in the order the user wrote them (QJsonDocument would sort
// them, and a program that reads the value may care).
QByteArray compactJson(const QByteArray& json)
{
    QByteArray out;
    out.reserve(json.size());
    bool inString = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            out.append(c);
            if (c == '\\' && i + 1 < json.size())
                out.append(json[++i]);
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
            out.append(c);
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            out.append(c);
        }
    }
    return out;
}

QString shownValue(const QByteArray& bytes)
{
    const inspect::DecodedValue decoded = inspect::decodeValue(bytes);
    return inspect::isReadableText(decoded.bytes) ? displayText(decoded.bytes)
                                                  : displayText(keyspace::escapeLikeRedisCli(decoded.bytes));
}

} // namespace

QWidget* KeyDetailsView::createEditBar()
{
    // Narrow enough for the details pane: the value's own actions as buttons, the key's in one menu, and what the
    // last edit said on a line of its own.
    auto* bar = new QWidget;
    auto* column = new QVBoxLayout(bar);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    auto* row = new QHBoxLayout;
    row->setSpacing(4);
    column->addLayout(row);
    const auto button = [&](const QString& text, const QString& tip, auto slot) {
        auto* pushButton = new QPushButton(text);
        pushButton->setToolTip(tip);
        // As narrow as their words, not the style's 80 px: at 800 px the Key menu beside them stayed cut off.
        pushButton->setMinimumWidth(pushButton->fontMetrics().horizontalAdvance(text) + 16);
        connect(pushButton, &QPushButton::clicked, this, slot);
        row->addWidget(pushButton);
        return pushButton;
    };
    m_editButton = button(tr("Edit"), tr("Edit the value in the view shown"), &KeyDetailsView::startStringEdit);
    m_saveButton = button(tr("Save"), tr("Write it, unless it changed on the server since"), [this] { saveString(); });
    m_cancelButton = button(tr("Cancel"), QString(), &KeyDetailsView::cancelStringEdit);
    m_addButton = button(tr("Add…"), tr("Add a field, element, member or entry"), &KeyDetailsView::addElement);
    m_editElementButton = button(tr("Edit…"), tr("Edit the selected element"), &KeyDetailsView::editElement);
    m_removeButton = button(tr("Remove"), tr("Remove the selected element"), &KeyDetailsView::removeElement);
    auto* keyActions = m_keyActions = new QToolButton;
    keyActions->setText(tr("Key"));
    keyActions->setToolTip(tr("The key's TTL, name and copies"));
    keyActions->setPopupMode(QToolButton::InstantPopup);
    keyActions->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* menu = new QMenu(keyActions);
    menu->addAction(tr("Set or remove the TTL…"), this, &KeyDetailsView::setTtl);
    menu->addAction(tr("Rename…"), this, &KeyDetailsView::renameKey);
    menu->addAction(tr("Duplicate…"), this, &KeyDetailsView::duplicateKey);
    keyActions->setMenu(menu);
    row->addWidget(keyActions);
    row->addStretch(1); // everything at the left edge: a long key name can make the pane scroll sideways
    m_editStatus = new QLabel;
    m_editStatus->setWordWrap(true);
    m_editStatus->setVisible(false);
    column->addWidget(m_editStatus);
    connect(m_inspector, &models::ValueInspector::editDone, this, &KeyDetailsView::takeEdit);
    updateEditControls();
    return bar;
}

void KeyDetailsView::setEditStatus(const QString& text)
{
    m_editStatus->setText(text);
    m_editStatus->setVisible(!text.isEmpty()); // no empty line under the buttons
}

QString KeyDetailsView::editStatus() const
{
    return m_editStatus->text();
}

void KeyDetailsView::setReadOnly(bool readOnly)
{
    m_readOnly = readOnly;
    if (readOnly)
        cancelStringEdit();
    updateEditControls();
}

void KeyDetailsView::updateEditControls()
{
    // Shown where they apply, enabled only where an edit can be written: not on a read-only connection, not on a key
    // that is gone.
    const bool writable = !m_readOnly && !m_keyGone && !m_fromFile;
    const QString why = m_fromFile   ? tr("Read from an RDB file: nothing can be changed")
                        : m_readOnly ? tr("This connection is read-only: nothing can be changed")
                        : m_keyGone  ? tr("The key is gone from the server: nothing can be edited in it")
                                     : QString();
    for (QWidget* control : std::initializer_list<QWidget*>{m_addButton, m_editElementButton, m_removeButton,
                                                            m_keyActions, m_saveButton}) {
        control->setEnabled(writable);
        if (!writable)
            control->setToolTip(why);
    }
    const bool exists = m_loaded && m_overview.error.isEmpty() && m_overview.key.exists;
    const KeyType type = exists ? m_overview.key.type : KeyType::Unknown;
    const bool isString = type == KeyType::String;
    const bool isCollection = type == KeyType::Hash || type == KeyType::List || type == KeyType::Set ||
                              type == KeyType::ZSet || type == KeyType::Stream;
    m_editButton->setVisible(isString && !m_editingString);
    m_editButton->setEnabled(writable && isString && !m_overview.key.valueTruncated);
    m_editButton->setToolTip(!writable                       ? why
                             : m_overview.key.valueTruncated ? tr("Too big to edit here: only its start was read")
                                                             : tr("Edit the value in the view shown"));
    if (writable) {
        m_addButton->setToolTip(tr("Add a field, element, member or entry"));
        m_editElementButton->setToolTip(tr("Edit the selected element"));
        m_removeButton->setToolTip(tr("Remove the selected element"));
        m_keyActions->setToolTip(tr("The key's TTL, name and copies"));
        m_saveButton->setToolTip(tr("Write it, unless it changed on the server since"));
    }
    m_saveButton->setVisible(m_editingString);
    m_cancelButton->setVisible(m_editingString);
    m_addButton->setVisible(isCollection);
    m_editElementButton->setVisible(isCollection && type != KeyType::Stream); // entries are immutable
    m_removeButton->setVisible(isCollection);
}

void KeyDetailsView::request(const edit::KeyEdit& change)
{
    setEditStatus(tr("Writing…"));
    m_editRequest = m_inspector->requestEdit(change);
}

void KeyDetailsView::startStringEdit()
{
    if (m_overview.key.valueTruncated)
        return;
    m_editingString = true;
    if (Mode(m_mode->currentIndex()) == Mode::Hex ||
        (Mode(m_mode->currentIndex()) == Mode::Auto && m_overview.value.kind == inspect::ContentKind::Binary)) {
        m_mode->setCurrentIndex(int(Mode::Hex));
        m_text->setPlainText(hexForEditing(m_overview.value.bytes));
    }
    m_mode->setEnabled(false);
    m_text->setReadOnly(false);
    m_text->setFocus();
    setEditStatus(tr("Editing: Save writes it unless it changed on the server since it was read."));
    updateEditControls();
}

void KeyDetailsView::cancelStringEdit()
{
    if (!m_editingString)
        return;
    m_editingString = false;
    m_text->setReadOnly(true);
    m_mode->setEnabled(true);
    if (m_loaded)
        showString();
    setEditStatus({});
    updateEditControls();
}

void KeyDetailsView::saveString(bool overwrite)
{
    const inspect::DecodedValue& stored = m_overview.value;
    std::optional<QByteArray> bytes;
    if (overwrite && m_unsaved) {
        bytes = m_unsaved;
    } else {
        const QString text = m_text->toPlainText();
        Mode mode = Mode(m_mode->currentIndex());
        if (mode == Mode::Auto) // as showString() chose
            mode = stored.kind == inspect::ContentKind::Json     ? Mode::Json
                   : stored.kind == inspect::ContentKind::Binary ? Mode::Hex
                                                                 : Mode::Text;
        switch (mode) {
        case Mode::Hex:
            bytes = bytesFromHex(text);
            if (!bytes)
                setEditStatus(tr("Hex takes pairs of digits (spaces and lines are ignored)."));
            break;
        case Mode::Json: {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
            if (document.isNull()) {
                setEditStatus(tr("Not valid JSON: %1 at byte %2").arg(error.errorString()).arg(error.offset));
                break;
            }
            // A value stored compact stays compact: the pretty view is only for reading.
            bytes = stored.bytes.contains('\n') ? text.toUtf8() : compactJson(text.toUtf8());
            break;
        }
        case Mode::Text:
        case Mode::Auto:
            if (inspect::isReadableText(stored.bytes) || stored.bytes.isEmpty()) {
                bytes = text.toUtf8();
            } else {
                // Shown escaped the way redis-cli writes bytes: read back the same way.
                bytes = edit::unescapeRedisCli(text.toUtf8());
                if (!bytes)
                    setEditStatus(tr("The escaped text does not parse: check its \\x escapes."));
            }
            break;
        }
    }
    if (!bytes)
        return;
    m_unsaved = bytes;
    QByteArray toWrite = *bytes;
    if (stored.compression != inspect::Compression::None) {
        const QString codec = inspect::compressionName(stored.compression);
        QMessageBox ask(QMessageBox::Question, tr("Save compressed?"),
                        tr("The stored value is %1-compressed, and the program that wrote it probably "
                           "expects it so. Save your edit %1-compressed too?")
                            .arg(codec),
                        QMessageBox::Cancel, this);
        QPushButton* compressed = ask.addButton(tr("Save %1-compressed").arg(codec), QMessageBox::AcceptRole);
        QPushButton* plain = ask.addButton(tr("Save uncompressed"), QMessageBox::DestructiveRole);
        ask.setDefaultButton(compressed);
        ask.exec();
        if (ask.clickedButton() == compressed) {
            QString problem;
            const std::optional<QByteArray> encoded = inspect::encodeValue(*bytes, stored.compression, &problem);
            if (!encoded) {
                setEditStatus(problem);
                return;
            }
            toWrite = *encoded;
        } else if (ask.clickedButton() != plain) {
            return;
        }
    }
    edit::KeyEdit change;
    change.kind = Kind::SetString;
    change.key = m_key;
    change.value = toWrite;
    change.expected = m_overview.key.valuePrefix; // all of it: a truncated value cannot be edited
    request(change);
}

const inspect::ValueRow* KeyDetailsView::selectedRow() const
{
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? m_tableModel->rowAt(current.row()) : nullptr;
}

void KeyDetailsView::addElement()
{
    runElementDialog(nullptr);
}

void KeyDetailsView::runElementDialog(const inspect::ValueRow* existing)
{
    // Open until the server answered: a refused Add (the field exists already, OOM, NOPERM) keeps what was typed, with
    // why beside it, where closing at once had lost it.
    ElementDialog dialog(m_key, m_overview.key.type, existing, selectedRow(), this);
    dialog.setSend([this](const edit::KeyEdit& change) { request(change); });
    m_elementDialog = &dialog;
    dialog.exec();
    m_elementDialog = nullptr;
}

void KeyDetailsView::editElement()
{
    const inspect::ValueRow* row = selectedRow();
    if (!row) {
        setEditStatus(tr("Select the element to edit."));
        return;
    }
    runElementDialog(row);
}

void KeyDetailsView::removeElement()
{
    const inspect::ValueRow* row = selectedRow();
    if (!row) {
        setEditStatus(tr("Select the element to remove."));
        return;
    }
    edit::KeyEdit change;
    change.key = m_key;
    QString what;
    switch (m_overview.key.type) {
    case KeyType::Hash:
        change.kind = Kind::RemoveHashField;
        change.field = row->first;
        change.expected = row->second;
        what = tr("the field %1").arg(keyspace::displayString(row->first));
        break;
    case KeyType::List:
        change.kind = Kind::RemoveListElements;
        change.index = 1; // the first element equal to it, from the head
        change.value = row->second;
        what = tr("the first element equal to %1 (LREM 1)").arg(keyspace::displayString(row->second.left(200)));
        break;
    case KeyType::Set:
    case KeyType::ZSet:
        change.kind = m_overview.key.type == KeyType::Set ? Kind::RemoveSetMember : Kind::RemoveZsetMember;
        change.field = row->first;
        what = tr("the member %1").arg(keyspace::displayString(row->first.left(200)));
        break;
    case KeyType::Stream:
        change.kind = Kind::RemoveStreamEntry;
        change.field = row->first;
        what = tr("the entry %1").arg(displayText(row->first));
        break;
    default:
        return;
    }
    if (QMessageBox::question(this, tr("Remove"), tr("Remove %1?").arg(what)) != QMessageBox::Yes)
        return;
    request(change);
}

void KeyDetailsView::setTtl()
{
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("TTL of %1").arg(keyspace::displayString(m_key.left(200))),
                                               tr("Expire in (90, 15m, 2h, 7d); empty to remove the TTL:"),
                                               QLineEdit::Normal, QString(), &ok);
    if (!ok)
        return;
    edit::KeyEdit change;
    change.key = m_key;
    if (text.trimmed().isEmpty()) {
        change.kind = Kind::Persist;
    } else {
        const std::optional<std::int64_t> ttl = usage::parseDuration(text.toUtf8());
        if (!ttl || *ttl <= 0) {
            setEditStatus(tr("A TTL is a duration such as 90, 15m, 2h or 7d."));
            return;
        }
        change.kind = Kind::SetTtl;
        change.ttlMs = *ttl;
    }
    request(change);
}

void KeyDetailsView::renameKey()
{
    KeyNameDialog dialog(tr("Rename"), m_key, m_database, this);
    if (dialog.exec() != QDialog::Accepted || !dialog.name())
        return;
    edit::KeyEdit change;
    change.kind = Kind::Rename;
    change.key = m_key;
    change.newKey = *dialog.name();
    change.database = dialog.database();
    request(change);
}

void KeyDetailsView::duplicateKey()
{
    KeyNameDialog dialog(tr("Duplicate"), m_key + ":copy", m_database, this);
    if (dialog.exec() != QDialog::Accepted || !dialog.name())
        return;
    edit::KeyEdit change;
    change.kind = Kind::Duplicate;
    change.key = m_key;
    change.newKey = *dialog.name();
    change.database = dialog.database();
    request(change);
}

void KeyDetailsView::takeEdit(const models::ValueInspector::Edit& result)
{
    if (result.request != m_editRequest)
        return; // another view's, or the window's
    // Written: the element dialog closes (before the pane is read again, which would tell it the answer was lost).
    if (m_elementDialog && m_elementDialog->isWaiting() && result.error.isEmpty() && result.outcome.applied)
        m_elementDialog->written();
    if (!result.error.isEmpty()) {
        setEditStatus(result.error);
    } else if (result.outcome.conflict && result.change.kind == Kind::SetString && m_unsaved &&
               result.outcome.current) {
        const QString server = shownValue(*result.outcome.current);
        QMessageBox conflict(QMessageBox::Warning, tr("Changed on the server"),
                             tr("%1. Your edit was not written. The difference (- on the server now, + "
                                "yours) is below.")
                                 .arg(result.outcome.message),
                             QMessageBox::NoButton, this);
        conflict.setDetailedText(models::lineDiff(server, shownValue(*m_unsaved)));
        QPushButton* overwrite = conflict.addButton(tr("Overwrite theirs"), QMessageBox::DestructiveRole);
        QPushButton* reload = conflict.addButton(tr("Discard mine and reload"), QMessageBox::RejectRole);
        conflict.addButton(tr("Keep editing"), QMessageBox::AcceptRole);
        setEditStatus(result.outcome.message);
        Q_EMIT editFinished();
        conflict.exec();
        if (conflict.clickedButton() == overwrite) {
            m_overview.key.valuePrefix = *result.outcome.current; // what it is now is what the edit replaces
            saveString(true);
        } else if (conflict.clickedButton() == reload) {
            showKey(m_key, m_node);
        }
        return;
    } else if (result.outcome.keyGone || (result.outcome.conflict && !result.outcome.current)) {
        // Deleted or renamed by someone else (a string's edit finds it gone as a conflict with nothing there now): say
        // so, and let nothing more be written under the old name. There is nothing to overwrite.
        m_keyGone = true;
        cancelStringEdit();
        const QString why =
            result.outcome.keyGone
                ? result.outcome.message
                : tr("%1 was deleted on the server since it was read").arg(displayText(keyspace::displayBytes(m_key)));
        setEditStatus(tr("%1; nothing was written. This pane is read-only now: select the key again after a rescan, "
                         "or another key.")
                          .arg(why));
        updateEditControls();
    } else if (!result.outcome.applied) {
        // An element's conflict: what the server holds there now, beside why nothing was written.
        QString text = result.outcome.message;
        if (result.outcome.conflict && result.outcome.current)
            text += tr(" (now: %1)").arg(keyspace::displayString(result.outcome.current->left(200)));
        setEditStatus(text + (result.outcome.conflict ? tr("; nothing was written.") : QString()));
        if (result.outcome.conflict && m_tableModel->rowCount() > 0)
            m_tableModel->setQuery(m_tableModel->query()); // read the elements again, as they are now
    } else {
        setEditStatus(tr("Saved."));
        m_unsaved.reset();
        m_editingString = false;
        m_text->setReadOnly(true);
        m_mode->setEnabled(true);
        const bool renamedHere =
            result.change.kind == Kind::Rename && (result.change.database < 0 || result.change.database == m_database);
        if (renamedHere) {
            // The pane follows the key to its new name, also where the tree shows no row of it (a filter it does
            // not match): left on the old name, its buttons wrote to a key that is gone. The window selects the new
            // name where it can, which shows it again without losing this line.
            const QString renamed = tr("Renamed to %1.").arg(displayText(keyspace::displayBytes(result.change.newKey)));
            showKey(result.change.newKey, {});
            setEditStatus(renamed);
            m_renamedTo = result.change.newKey;
        } else {
            // Read back what the server holds now (a rename to another database leaves nothing here: it says so).
            const QString saved = m_editStatus->text();
            showKey(m_key, m_node);
            setEditStatus(saved);
        }
    }
    if (m_elementDialog && m_elementDialog->isWaiting()) // refused: said there too, beside what was typed
        m_elementDialog->refused(editStatus(), !m_keyGone);
    Q_EMIT editFinished();
}

} // namespace keylens::ui
