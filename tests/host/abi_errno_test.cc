// tests/host/abi_errno_test.cc - the error numbers SYS_errno reports
// (lib/abi/errno.h) and the kernel's Error-to-number map
// (lib/abi/errno_map.h): Linux's numbers, a number for every Error, and a
// message for every number. lib/abi/errno.h comes first, before any system
// header, so its own enum (not glibc's macros) is what is checked.
#include "lib/abi/errno_map.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

using q::errno_of;
using q::Error;

namespace {

// The last Error in lib/result.h; every value up to it is an Error.
constexpr Error kLastError = Error::NoSuchCall;

TEST(AbiErrno, LinuxNumbers) {
    EXPECT_EQ(EPERM, 1);
    EXPECT_EQ(ENOENT, 2);
    EXPECT_EQ(ESRCH, 3);
    EXPECT_EQ(EINTR, 4);
    EXPECT_EQ(EIO, 5);
    EXPECT_EQ(ENOEXEC, 8);
    EXPECT_EQ(EBADF, 9);
    EXPECT_EQ(ECHILD, 10);
    EXPECT_EQ(EAGAIN, 11);
    EXPECT_EQ(ENOMEM, 12);
    EXPECT_EQ(EACCES, 13);
    EXPECT_EQ(EFAULT, 14);
    EXPECT_EQ(EEXIST, 17);
    EXPECT_EQ(EXDEV, 18);
    EXPECT_EQ(ENOTDIR, 20);
    EXPECT_EQ(EISDIR, 21);
    EXPECT_EQ(EINVAL, 22);
    EXPECT_EQ(ENFILE, 23);
    EXPECT_EQ(ETXTBSY, 26);  // Linux's: a running program's file opened to write
    EXPECT_EQ(EMFILE, 24);
    EXPECT_EQ(EFBIG, 27);
    EXPECT_EQ(ENOSPC, 28);
    EXPECT_EQ(ESPIPE, 29);
    EXPECT_EQ(EPIPE, 32);
    EXPECT_EQ(ENAMETOOLONG, 36);
    EXPECT_EQ(ENOSYS, 38);
    EXPECT_EQ(ENOTEMPTY, 39);
}

TEST(AbiErrno, EveryErrorHasItsOwnNumber) {
    EXPECT_EQ(errno_of(Error::Ok), 0);
    std::set<int> seen;
    for (int v = 1; v <= static_cast<int>(kLastError); v++) {
        const int n = errno_of(static_cast<Error>(v));
        EXPECT_GT(n, 0) << "Error " << v;
        EXPECT_STRNE(errno_text(n), "unknown error") << "Error " << v << " -> " << n;
        EXPECT_TRUE(seen.insert(n).second) << "Error " << v << " shares number " << n;
    }
}

TEST(AbiErrno, TheMapUsersSee) {
    EXPECT_EQ(errno_of(Error::NotFound), ENOENT);
    EXPECT_EQ(errno_of(Error::Permission), EACCES);
    EXPECT_EQ(errno_of(Error::TextBusy), ETXTBSY);
    EXPECT_EQ(errno_of(Error::BadFd), EBADF);
    EXPECT_EQ(errno_of(Error::BadAddress), EFAULT);
    EXPECT_EQ(errno_of(Error::Exists), EEXIST);
    EXPECT_EQ(errno_of(Error::NotEmpty), ENOTEMPTY);
    EXPECT_EQ(errno_of(Error::NoSpace), ENOSPC);
    EXPECT_EQ(errno_of(Error::IoError), EIO);
    EXPECT_EQ(errno_of(Error::BrokenPipe), EPIPE);
    EXPECT_EQ(errno_of(Error::NoChild), ECHILD);
    EXPECT_EQ(errno_of(Error::NotPermitted), EPERM);
    EXPECT_EQ(errno_of(Error::TryAgain), EAGAIN);
    EXPECT_EQ(errno_of(Error::NotTty), ENOTTY);
    EXPECT_EQ(errno_of(Error::NameTooLong), ENAMETOOLONG);
    EXPECT_EQ(errno_of(Error::NoSuchCall), ENOSYS);
    static_assert(errno_of(Error::IsDir) == EISDIR, "the map is usable at compile time");
}

TEST(AbiErrno, Messages) {
    EXPECT_STREQ(errno_text(0), "no error");
    EXPECT_STREQ(errno_text(EACCES), "permission denied");
    EXPECT_STREQ(errno_text(ENOENT), "no such file or directory");
    EXPECT_STREQ(errno_text(-1), "unknown error");
    EXPECT_STREQ(errno_text(1000), "unknown error");
    // Lower case, no full stop: they end messages such as "cannot open x: ...".
    for (int n = 1; n < 200; n++) {
        const std::string t = errno_text(n);
        if (t == "unknown error") continue;
        EXPECT_TRUE(t[0] >= 'a' && t[0] <= 'z') << n << ": " << t;
        EXPECT_NE(t.back(), '.') << n << ": " << t;
    }
}

}  // namespace
