#pragma once

#include <QLocale>
#include <QString>
#include <QStringList>

namespace keylens::ui {

// Where keylens_<language>.qm files are looked for: beside an installed binary (../share/keylens/translations),
// then in the build tree (bin/translations).
QStringList translationDirectories();

// Installs on the application the window's translation for `locale` (its UI languages in order, as LANGUAGE and
// LC_MESSAGES give them), from the first of `directories` that has one, and Qt's own for the same language (the
// standard dialogs' buttons). Returns the file it loaded, or nothing when there is none: the window stays in
// English. Needs a QCoreApplication.
QString installTranslations(const QLocale& locale, const QStringList& directories);

} // namespace keylens::ui
