#include <nss.h>
#include <pk11pub.h>
#include <secmod.h>
#include <secitem.h>
#include <prerror.h>
#include <secerr.h>
