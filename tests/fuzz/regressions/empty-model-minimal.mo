model M end M;
