// tests/host/kfs_path_test.cc - path element splitting (lib/fs/path.h).
#include "lib/fs/path.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using q::fs::kNameBuf;
using q::fs::next_elem;

std::vector<std::string> split(const char* path) {
    std::vector<std::string> out;
    char name[kNameBuf];
    while ((path = next_elem(path, name)) != nullptr) out.emplace_back(name);
    return out;
}

TEST(KfsPath, EmptyAndSlashesHaveNoElement) {
    char name[kNameBuf];
    EXPECT_EQ(next_elem("", name), nullptr);
    EXPECT_EQ(next_elem("/", name), nullptr);
    EXPECT_EQ(next_elem("////", name), nullptr);
    EXPECT_TRUE(q::fs::path_has_no_elem("///"));
    EXPECT_FALSE(q::fs::path_has_no_elem("/a"));
}

TEST(KfsPath, SplitsOnRunsOfSlashes) {
    EXPECT_EQ(split("a/bb/c"), (std::vector<std::string>{"a", "bb", "c"}));
    EXPECT_EQ(split("///a//bb///"), (std::vector<std::string>{"a", "bb"}));
    EXPECT_EQ(split("./../x"), (std::vector<std::string>{".", "..", "x"}));
}

TEST(KfsPath, RestHasNoLeadingSlash) {
    char name[kNameBuf];
    const char* rest = next_elem("a//b/", name);
    ASSERT_NE(rest, nullptr);
    EXPECT_STREQ(name, "a");
    EXPECT_STREQ(rest, "b/");
    rest = next_elem(rest, name);
    EXPECT_STREQ(name, "b");
    EXPECT_STREQ(rest, "");  // trailing slash: last element, nothing after
}

TEST(KfsPath, FourteenByteNameKeptWhole) {
    char name[kNameBuf];
    next_elem("abcdefghijklmn/x", name);
    EXPECT_EQ(std::strlen(name), 14u);
    EXPECT_STREQ(name, "abcdefghijklmn");
}

TEST(KfsPath, LongerNameTruncatedToFourteen) {
    char name[kNameBuf];
    const char* rest = next_elem("abcdefghijklmnopqrstuvwxyz/tail", name);
    EXPECT_STREQ(name, "abcdefghijklmn");
    EXPECT_STREQ(rest, "tail");
}

TEST(KfsPath, NameBufferAlwaysTerminated) {
    char name[kNameBuf];
    std::memset(name, 'Z', sizeof name);
    next_elem("ab", name);
    EXPECT_EQ(name[2], '\0');
    EXPECT_EQ(name[kNameBuf - 1], '\0');
}

TEST(KfsPath, NameEqualComparesAtMostFourteen) {
    char entry[q::fs::kNameLen];
    q::fs::name_store(entry, "abcdefghijklmn");  // fills all 14, no NUL
    EXPECT_TRUE(q::fs::name_equal(entry, "abcdefghijklmn"));
    EXPECT_TRUE(q::fs::name_equal(entry, "abcdefghijklmnXYZ"));
    EXPECT_FALSE(q::fs::name_equal(entry, "abcdefghijklm"));
    q::fs::name_store(entry, "ab");
    EXPECT_TRUE(q::fs::name_equal(entry, "ab"));
    EXPECT_FALSE(q::fs::name_equal(entry, "abc"));
    EXPECT_FALSE(q::fs::name_equal(entry, "a"));
    for (unsigned i = 2; i < q::fs::kNameLen; i++) EXPECT_EQ(entry[i], '\0');
}

TEST(KfsPath, DotAndDotDot) {
    EXPECT_TRUE(q::fs::is_dot_or_dotdot("."));
    EXPECT_TRUE(q::fs::is_dot_or_dotdot(".."));
    EXPECT_FALSE(q::fs::is_dot_or_dotdot("..."));
    EXPECT_FALSE(q::fs::is_dot_or_dotdot(".a"));
}

constexpr bool constexpr_split_works() {
    char name[kNameBuf] = {};
    const char* rest = next_elem("/usr/bin", name);
    return rest != nullptr && name[0] == 'u' && name[3] == '\0' && rest[0] == 'b';
}
static_assert(constexpr_split_works());

}  // namespace
