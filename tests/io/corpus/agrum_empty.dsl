net Unnamed
{
};